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

/** One address and QR for one asset on one network, with the crypto rate locked until it expires. */
@Entity
@Table(name = "payment_request")
public class PaymentRequest extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "transaction_id", nullable = false)
    public UUID transactionId;

    @Column(name = "crypto_asset", nullable = false)
    public String cryptoAsset;

    @Column(name = "crypto_network", nullable = false)
    public String cryptoNetwork;

    @Column(nullable = false)
    public String address;

    /** The extended public key and child index (…/0/index) the address was derived from. */
    @Column(nullable = false)
    public String xpub;

    @Column(name = "derivation_index", nullable = false)
    public long derivationIndex;

    @Column(name = "expected_crypto", nullable = false)
    public BigDecimal expectedCrypto;

    @Column(name = "received_crypto", nullable = false)
    public BigDecimal receivedCrypto;

    @Column(name = "expected_usd", nullable = false)
    public BigDecimal expectedUSD;

    @Column(name = "received_usd", nullable = false)
    public BigDecimal receivedUSD;

    @Column(name = "crypto_fx_rate", nullable = false)
    public BigDecimal cryptoFXRate;

    @Column(name = "customer_fee_usd", nullable = false)
    public BigDecimal customerFeeUSD;

    @Column(name = "tx_hash")
    public String txnHash;

    @Column(name = "confirmation_count", nullable = false)
    public int confirmationCount;

    @Column(name = "gas_fee")
    public BigDecimal gasFee;

    @Column(nullable = false)
    public int status;

    @Column(name = "qr_data", nullable = false)
    public String qrData;

    /** Confirmations a transfer needs before it counts (docs/decisions.md §2), fixed when the request is opened. */
    @Column(name = "required_confirmations")
    public Integer requiredConfirmations;

    /** The sending address of the first transfer seen to this request's address. */
    @Column(name = "from_address")
    public String fromAddress;

    /** The customer's wallet address, when the payment call named one. */
    public String wallet;

    /** The customer's wallet app, when known (reporting's walletName). */
    @Column(name = "wallet_name")
    public String walletName;

    /** Payer screening's verdict; null until screened. */
    @Column(name = "fraud_pass")
    public Boolean fraudPass;

    /** When the request reached confirmed or underpaid: its on-time transfers' last confirmation. */
    @Column(name = "completed_at")
    public OffsetDateTime completedAt;

    @Column(nullable = false)
    public OffsetDateTime expiration;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    public PaymentRequestState state() {
        return PaymentRequestState.of(status);
    }

    /**
     * Moves to {@code next} (staying is always allowed) when {@link PaymentRequestState}'s table allows it. Only
     * detection, expiry and cancel move a request, never a client directly, so a refused move is a bug.
     */
    public void moveTo(PaymentRequestState next) {
        if (state() != next && !state().canMoveTo(next)) {
            throw new IllegalStateException("payment request " + id + " cannot move from " + state() + " to " + next);
        }
        status = next.wire();
    }

    public static List<PaymentRequest> ofTransaction(UUID transactionId) {
        return list("transactionId = ?1 order by createdAt, id", transactionId);
    }

    public static List<PaymentRequest> ofTransactions(Collection<UUID> transactionIds) {
        if (transactionIds.isEmpty()) {
            return List.of();
        }
        return list("transactionId in ?1 order by createdAt, id", transactionIds);
    }
}
