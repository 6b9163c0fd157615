package dev.cryptopay.transaction.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A transfer on the sandbox chain; without a block it waits in the mempool for the next one. */
@Entity
@Table(name = "sandbox_transfer")
public class SandboxTransfer extends PanacheEntityBase {

    @Id
    @Column(name = "txn_hash")
    public String txnHash;

    @Column(nullable = false)
    public String network;

    @Column(nullable = false)
    public String asset;

    @Column(name = "from_address", nullable = false)
    public String fromAddress;

    @Column(name = "to_address", nullable = false)
    public String toAddress;

    @Column(nullable = false)
    public BigDecimal amount;

    @Column(name = "block_number")
    public Long blockNumber;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;
}
