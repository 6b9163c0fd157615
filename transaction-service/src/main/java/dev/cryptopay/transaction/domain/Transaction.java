package dev.cryptopay.transaction.domain;

import dev.cryptopay.support.problem.ApiException;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A transaction: an amount in a local currency that a customer pays in crypto, through payment requests. */
@Entity
@Table(name = "transaction")
public class Transaction extends PanacheEntityBase {

    /** Where {@link #fxRateToUSD} came from: the rate provider, or the merchant's own {@code fxRate}. */
    public static final String FX_FROM_PROVIDER = "provider";
    public static final String FX_FROM_MERCHANT = "merchant";

    @Id
    public UUID id;

    @Column(name = "account_id", nullable = false)
    public UUID accountId;

    @Column(name = "merchant_id", nullable = false)
    public UUID merchantId;

    @Column(name = "external_mid")
    public String externalMID;

    public String descriptor;

    @Column(name = "reference_number")
    public String referenceNumber;

    @Column(name = "quote_id")
    public String quoteID;

    @Column(nullable = false)
    public int status;

    @Column(name = "payment_status", nullable = false)
    public int paymentStatus;

    @Column(nullable = false)
    public String currency;

    @Column(name = "total_local", nullable = false)
    public BigDecimal totalLocal;

    @Column(name = "total_usd", nullable = false)
    public BigDecimal totalUSD;

    @Column(name = "received_usd", nullable = false)
    public BigDecimal receivedUSD;

    @Column(name = "customer_fee_usd", nullable = false)
    public BigDecimal customerFeeUSD;

    @Column(name = "fx_rate_to_usd", nullable = false)
    public BigDecimal fxRateToUSD;

    @Column(name = "fx_rate_source", nullable = false)
    public String fxRateSource;

    /** Asset and network named at creation; verification uses them when it names none. */
    @Column(name = "requested_asset", nullable = false)
    public String requestedAsset;

    @Column(name = "requested_network", nullable = false)
    public String requestedNetwork;

    @Column(name = "kyc_triggered", nullable = false)
    public boolean kycTriggered;

    /**
     * Opened for a billing attempt of subscription-service: its events go to {@code internal.billing.v1} too
     * (docs/decisions.md §109).
     */
    @Column(nullable = false)
    public boolean billing;

    @Column(name = "travel_rule_triggered", nullable = false)
    public boolean travelRuleTriggered;

    /** What a verification must still supply (after the {@code optional} prefill); empty without KYC. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "required_fields", nullable = false, columnDefinition = "jsonb")
    public List<String> requiredFields;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(columnDefinition = "jsonb")
    public CustomerDetails prefill;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "kyc_details", columnDefinition = "jsonb")
    public KycDetails kycDetails;

    @Column(name = "cancellation_reason")
    public String cancellationReason;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    @Column(nullable = false)
    public OffsetDateTime expiration;

    /** Grows by one with every event of this transaction (docs/decisions.md §7). */
    @Column(nullable = false)
    public long version;

    /** When confirmed funds first covered the amount due; the refund window counts from here. */
    @Column(name = "succeeded_at")
    public OffsetDateTime succeededAt;

    /** The merchant's discount rate and fee schedule in force when the transaction succeeded (docs/decisions.md §8). */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "merchant_fees", columnDefinition = "jsonb")
    public MerchantFees merchantFees;

    /**
     * Held for compliance review (docs/decisions.md §2): the status stays 0 and no success event is written until an
     * operator releases or refunds it.
     */
    @Column(name = "held_for_review", nullable = false)
    public boolean heldForReview;

    /** Every compliance decision, oldest first; only ever appended to (see {@link #logResolution}). */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "resolution_logs", nullable = false, columnDefinition = "jsonb")
    public List<ResolutionLog> resolutionLogs = List.of();

    /** The reference of the suspicious-transaction report an operator filed; null until filed. */
    @Column(name = "str_filing_reference")
    public String strFilingReference;

    /** Appends one compliance decision (a new list, so Hibernate sees the change). */
    public void logResolution(ResolutionLog entry) {
        List<ResolutionLog> logs = new ArrayList<>(resolutionLogs == null ? List.of() : resolutionLogs);
        logs.add(entry);
        resolutionLogs = List.copyOf(logs);
    }

    public TransactionState state() {
        return TransactionState.of(status);
    }

    /** The state a new transaction starts in (0, or -3 when KYC is needed). */
    public void start(TransactionState initial) {
        status = initial.wire();
    }

    /** Moves to {@code next} when {@link TransactionState}'s table allows it; else 409 invalid_state. */
    public void moveTo(TransactionState next) {
        status = state().moveTo(next).wire();
    }

    /** A transaction held for compliance review is the operator's to release or refund: anything else is 409. */
    public void requireNotHeld() {
        if (heldForReview) {
            throw ApiException.conflict("invalid_state", "The transaction is held for compliance review; the operator "
                    + "releases or refunds it.");
        }
    }

    public static Optional<Transaction> findForAccount(UUID accountId, UUID id) {
        return find("accountId = ?1 and id = ?2", accountId, id).firstResultOptional();
    }

    /** The row locked for a state change, so concurrent cancels and payments serialise. */
    public static Optional<Transaction> lockForAccount(UUID accountId, UUID id) {
        return find("accountId = ?1 and id = ?2", accountId, id).withLock(LockModeType.PESSIMISTIC_WRITE)
                .firstResultOptional();
    }
}
