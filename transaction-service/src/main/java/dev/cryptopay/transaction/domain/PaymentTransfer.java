package dev.cryptopay.transaction.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** A transfer seen on a chain to a payment request's address; (network, txnHash, position) identifies it. */
@Entity
@Table(name = "payment_transfer")
public class PaymentTransfer extends PanacheEntityBase {

    public static final int CONFIRMING = 0;
    public static final int CONFIRMED = 1;
    public static final int DROPPED = -1;

    @Id
    public UUID id;

    @Column(name = "payment_request_id", nullable = false)
    public UUID paymentRequestId;

    @Column(name = "transaction_id", nullable = false)
    public UUID transactionId;

    @Column(nullable = false)
    public String network;

    @Column(name = "txn_hash", nullable = false)
    public String txnHash;

    /** Log index of a token transfer; -1 for the native value of a transaction. */
    @Column(nullable = false)
    public int position;

    @Column(nullable = false)
    public String asset;

    @Column(name = "from_address")
    public String fromAddress;

    @Column(nullable = false)
    public BigDecimal amount;

    /**
     * Screening's verdict on {@link #fromAddress} when the transfer was first seen (docs/decisions.md §60): a list
     * category ({@code sanctioned}, {@code fraud}, {@code high-risk}, {@code custodial-exchange}), {@code clear}, or
     * {@code unavailable} when the provider could not answer; null for transfers seen before screening existed.
     */
    public String screening;

    /** The listing the verdict came from (list name and entry); null when clear. */
    @Column(name = "screening_source")
    public String screeningSource;

    @Column(name = "block_number")
    public Long blockNumber;

    @Column(name = "block_hash")
    public String blockHash;

    @Column(nullable = false)
    public int confirmations;

    @Column(nullable = false)
    public int status;

    @Column(nullable = false)
    public boolean late;

    @Column(name = "detected_at", nullable = false)
    public OffsetDateTime detectedAt;

    @Column(name = "confirmed_at")
    public OffsetDateTime confirmedAt;

    public boolean counts() {
        return status != DROPPED;
    }

    public static List<PaymentTransfer> ofTransaction(UUID transactionId) {
        return list("transactionId = ?1 order by detectedAt, txnHash, position", transactionId);
    }

    public static List<PaymentTransfer> ofTransactions(Collection<UUID> transactionIds) {
        if (transactionIds.isEmpty()) {
            return List.of();
        }
        return list("transactionId in ?1 order by detectedAt, txnHash, position", transactionIds);
    }
}
