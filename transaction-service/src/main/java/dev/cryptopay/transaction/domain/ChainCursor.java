package dev.cryptopay.transaction.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** How far the watcher has read a network: the last block, and its hash (to notice reorganisations). */
@Entity
@Table(name = "chain_cursor")
public class ChainCursor extends PanacheEntityBase {

    @Id
    public String network;

    @Column(name = "block_number", nullable = false)
    public long blockNumber;

    @Column(name = "block_hash")
    public String blockHash;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}
