package dev.cryptopay.subscription.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * One attempt to collect a subscription payment: one billing transaction in transaction-service, whose id is this
 * attempt's id. Address and crypto amount arrive with {@code transaction.created}; {@code txVersion} is the newest
 * transaction event version applied (older ones are ignored).
 */
@Entity
@Table(name = "payment_attempt")
public class PaymentAttempt extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "payment_id", nullable = false)
    public UUID paymentId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public AttemptResult result;

    @Column(nullable = false)
    public String network;

    @Column(nullable = false)
    public String asset;

    public String address;

    @Column(name = "txn_hash")
    public String txnHash;

    /** The crypto amount the transaction asks for (null until transaction.created). */
    public BigDecimal amount;

    /** The amount asked for, in the plan's currency. */
    @Column(name = "requested_amount", nullable = false)
    public BigDecimal requestedAmount;

    @Column(name = "started_at", nullable = false)
    public OffsetDateTime startedAt;

    @Column(name = "completed_at")
    public OffsetDateTime completedAt;

    @Column(name = "failure_reason")
    public String failureReason;

    @Column(name = "tx_version", nullable = false)
    public long txVersion;

    public static List<PaymentAttempt> ofPayment(UUID paymentId) {
        return list("paymentId = ?1 order by startedAt, id", paymentId);
    }
}
