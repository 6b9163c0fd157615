package dev.cryptopay.transaction.domain;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
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

    /** Grows by one with every event of this transaction (decisions §7). */
    @Column(nullable = false)
    public long version;

    /** When confirmed funds first covered the amount due; the refund window counts from here. */
    @Column(name = "succeeded_at")
    public OffsetDateTime succeededAt;

    /** The merchant's discount rate and fee schedule in force when the transaction succeeded (decisions §8). */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "merchant_fees", columnDefinition = "jsonb")
    public MerchantFees merchantFees;

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

    public static Optional<Transaction> findForAccount(UUID accountId, UUID id) {
        return find("accountId = ?1 and id = ?2", accountId, id).firstResultOptional();
    }

    /** The row locked for a state change, so concurrent cancels and payments serialise. */
    public static Optional<Transaction> lockForAccount(UUID accountId, UUID id) {
        return find("accountId = ?1 and id = ?2", accountId, id).withLock(LockModeType.PESSIMISTIC_WRITE)
                .firstResultOptional();
    }
}
