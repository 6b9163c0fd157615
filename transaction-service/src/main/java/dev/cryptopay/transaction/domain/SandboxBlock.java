package dev.cryptopay.transaction.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.OffsetDateTime;

/** A block of the sandbox chain (docs/decisions.md §9). */
@Entity
@Table(name = "sandbox_block")
@IdClass(SandboxBlock.Key.class)
public class SandboxBlock extends PanacheEntityBase {

    @Id
    public String network;

    @Id
    public long number;

    @Column(nullable = false)
    public String hash;

    @Column(name = "parent_hash", nullable = false)
    public String parentHash;

    @Column(name = "mined_at", nullable = false)
    public OffsetDateTime minedAt;

    public record Key(String network, long number) implements Serializable {
        public Key() {
            this(null, 0);
        }
    }
}
