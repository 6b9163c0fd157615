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

/**
 * One refund leg: crypto paid back from the platform's treasury to the payer of one payment request. Its status
 * changes only through {@link #broadcast}, {@link #complete} and {@link #fail}, which follow {@link RefundStatus}'s
 * table.
 */
@Entity
@Table(name = "refund")
public class Refund extends PanacheEntityBase {

    public static final String CUSTOMER = "customer";
    public static final String MERCHANT = "merchant";

    /** Who asked for the leg: the merchant's refund call, a clean cancel, or the operator. */
    public static final String FROM_REFUND = "refund";
    public static final String FROM_CANCEL = "cancel";
    /** Created by a compliance decision (docs/decisions.md §59): an automatic refund or an operator's. */
    public static final String FROM_COMPLIANCE = "compliance";

    @Id
    public UUID id;

    @Column(name = "transaction_id", nullable = false)
    public UUID transactionId;

    @Column(name = "payment_request_id", nullable = false)
    public UUID paymentRequestId;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "merchant_id", nullable = false)
    public UUID merchantId;

    @Column(name = "crypto_asset", nullable = false)
    public String cryptoAsset;

    @Column(name = "crypto_network", nullable = false)
    public String cryptoNetwork;

    /** Taken from the request's received crypto: what the cap counts. */
    @Column(name = "gross_crypto", nullable = false)
    public BigDecimal grossCrypto;

    /** Sent to the payer: gross less the gas fee when the customer bears it. */
    @Column(name = "crypto_amount", nullable = false)
    public BigDecimal cryptoAmount;

    @Column(name = "fiat_amount", nullable = false)
    public BigDecimal fiatAmount;

    @Column(name = "fiat_currency", nullable = false)
    public String fiatCurrency;

    @Column(name = "amount_usd", nullable = false)
    public BigDecimal amountUSD;

    @Column(name = "crypto_rate", nullable = false)
    public BigDecimal cryptoRate;

    @Column(name = "gas_fee", nullable = false)
    public BigDecimal gasFee;

    @Column(name = "gas_fee_payer", nullable = false)
    public String gasFeePayer;

    @Column(name = "receiver_address", nullable = false)
    public String receiverAddress;

    @Column(nullable = false)
    public int status;

    public String reason;

    @Column(nullable = false)
    public String origin;

    @Column(name = "txn_hash")
    public String txnHash;

    @Column(name = "block_number")
    public Long blockNumber;

    /** An EVM payout's signed transaction, kept from signing until it is broadcast (re-sent as it is after a crash). */
    @Column(name = "payout_raw")
    public String payoutRaw;

    @Column(nullable = false)
    public int confirmations;

    @Column(name = "required_confirmations", nullable = false)
    public int requiredConfirmations;

    @Column(name = "failure_reason")
    public String failureReason;

    /** Grows by one with every refund event. */
    @Column(nullable = false)
    public long version;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    @Column(name = "broadcast_at")
    public OffsetDateTime broadcastAt;

    @Column(name = "completed_at")
    public OffsetDateTime completedAt;

    public RefundStatus state() {
        return RefundStatus.of(status);
    }

    /** Pending → broadcast: the payout is on its way under {@code hash}. */
    public void broadcast(String hash, OffsetDateTime now) {
        status = state().moveTo(RefundStatus.BROADCAST).wire();
        txnHash = hash;
        broadcastAt = now;
        updatedAt = now;
    }

    /** Broadcast → completed: the payout reached its confirmations. */
    public void complete(OffsetDateTime now) {
        status = state().moveTo(RefundStatus.COMPLETED).wire();
        completedAt = now;
        updatedAt = now;
    }

    /** Pending or broadcast → failed, with why; its crypto counts as refundable again. */
    public void fail(String why, OffsetDateTime now) {
        status = state().moveTo(RefundStatus.FAILED).wire();
        failureReason = why;
        updatedAt = now;
    }

    /** Whether the leg takes from the cap: every leg but a failed one. */
    public boolean counts() {
        return status != RefundStatus.FAILED.wire();
    }

    public static List<Refund> ofTransaction(UUID transactionId) {
        return list("transactionId = ?1 order by createdAt, id", transactionId);
    }

    public static List<Refund> ofTransactions(Collection<UUID> transactionIds) {
        if (transactionIds.isEmpty()) {
            return List.of();
        }
        return list("transactionId in ?1 order by createdAt, id", transactionIds);
    }
}
