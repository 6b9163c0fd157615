package dev.cryptopay.transaction.service;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.CustomerDetails;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.PaymentStatus;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.kyc.KycPolicy;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.rates.Rates;
import dev.cryptopay.transaction.view.CreationResult;
import dev.cryptopay.transaction.view.TransactionView;
import dev.cryptopay.transaction.view.TransactionViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * Transactions: create (with the KYC gate), read, open a payment request, cancel. Every state change and
 * its event commit together (outbox). Verification lives in {@link VerificationService}.
 */
@ApplicationScoped
public class TransactionService {

    private final MerchantAccess access;
    private final PaymentRequests paymentRequests;
    private final Rates rates;
    private final TransactionEvents events;
    private final TransactionServiceConfig config;
    private final ConsistentReads consistentReads;
    private final RefundService refunds;

    public TransactionService(MerchantAccess access, PaymentRequests paymentRequests, Rates rates,
            TransactionEvents events, TransactionServiceConfig config, ConsistentReads consistentReads,
            RefundService refunds) {
        this.refunds = refunds;
        this.consistentReads = consistentReads;
        this.access = access;
        this.paymentRequests = paymentRequests;
        this.rates = rates;
        this.events = events;
        this.config = config;
    }

    @Transactional
    public CreationResult create(Caller caller, NewTransaction request) {
        CallerScope scope = access.scope(caller);
        return open(UUID.randomUUID(), access.forCreation(scope), request, scope.apiKey());
    }

    /**
     * Opens a transaction under {@code id} for {@code merchant}, with the merchant's rules (accepted assets, FX
     * permission, the KYC gate) and its events: what {@code POST /transaction} does once the caller is known. Billing
     * requests of subscription-service come in here too ({@code apiKey} false: they never carry an fxRate).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public CreationResult open(UUID id, MerchantView merchant, NewTransaction request, boolean apiKey) {
        requireEnabled(merchant);
        MerchantConfiguration config = merchant.config;

        Validation v = new Validation();
        paymentRequests.checkAccepted(v, config, request.asset(), request.network(), "asset", "network");
        v.throwIfInvalid();
        if (request.fxRate() != null) {
            if (!apiKey) {
                throw ApiException.forbidden("fxRate may only be set with an API key (X-Api-Key with X-MID).");
            }
            if (!config.fxRateAllowed()) {
                throw ApiException.forbidden("This merchant may not set fxRate; the operator grants the permission.");
            }
        }
        BigDecimal fxRateToUSD = request.fxRate() != null ? request.fxRate()
                : rates.fiatToUSD(request.currency(), "amountCurrency");

        OffsetDateTime now = Clock.now();
        Transaction tx = new Transaction();
        tx.id = id;
        tx.accountId = merchant.accountId;
        tx.merchantId = merchant.merchantId;
        tx.externalMID = merchant.externalMID;
        tx.descriptor = request.descriptor() != null ? request.descriptor() : config.descriptor();
        tx.referenceNumber = request.referenceNumber();
        tx.quoteID = request.quoteID();
        tx.paymentStatus = PaymentStatus.UNPAID.wire();
        tx.currency = request.currency();
        tx.totalLocal = request.amount();
        tx.fxRateToUSD = fxRateToUSD;
        tx.fxRateSource = request.fxRate() != null ? Transaction.FX_FROM_MERCHANT : Transaction.FX_FROM_PROVIDER;
        tx.totalUSD = Money.totalUSD(request.amount(), fxRateToUSD);
        tx.receivedUSD = Money.usd(BigDecimal.ZERO);
        tx.customerFeeUSD = Money.customerFeeUSD(tx.totalUSD, PaymentRequests.customerFee(config));
        tx.requestedAsset = request.asset();
        tx.requestedNetwork = request.network();
        tx.prefill = request.prefill();
        tx.createdAt = now;
        tx.updatedAt = now;

        KycPolicy.Decision kyc = KycPolicy.decide(config, request.amount());
        tx.kycTriggered = kyc.kycTriggered();
        tx.travelRuleTriggered = kyc.travelRuleTriggered();
        if (kyc.verificationRequired()) {
            tx.start(TransactionState.WAITING_FOR_KYC);
            tx.requiredFields = KycPolicy.requiredFields(request.prefill());
            tx.expiration = now.plus(this.config.kycExpiration());
            tx.persist();
            events.publish(EventTypes.TRANSACTION_CREATED, tx);
            events.publish(EventTypes.TRANSACTION_KYC_REQUIRED, tx);
            return TransactionViews.waitingForKyc(tx);
        }
        tx.start(TransactionState.PENDING);
        tx.requiredFields = List.of();
        tx.expiration = now;
        tx.persist();
        PaymentRequest payment = paymentRequests.open(tx, merchant, request.asset(), request.network(), null);
        tx.expiration = payment.expiration;
        events.publish(EventTypes.TRANSACTION_CREATED, tx);
        return TransactionViews.created(tx, payment);
    }

    @Transactional
    public TransactionView get(Caller caller, String transactionId) {
        consistentReads.begin();
        CallerScope scope = access.scope(caller);
        TransactionView view = TransactionViews.load(visible(scope, transactionId, false));
        return scope.apiKey() ? view : view.customerView();
    }

    /** The payment request a QR is drawn for: the named one, or the latest. */
    @Transactional
    public PaymentRequest paymentForQr(Caller caller, String transactionId, String paymentRequestId) {
        Transaction tx = visible(access.scope(caller), transactionId, false);
        List<PaymentRequest> requests = PaymentRequest.ofTransaction(tx.id);
        if (paymentRequestId == null || paymentRequestId.isBlank()) {
            if (requests.isEmpty()) {
                throw ApiException.notFound("Payment request of transaction " + transactionId);
            }
            return requests.get(requests.size() - 1);
        }
        return requests.stream().filter(p -> p.id.toString().equals(paymentRequestId.strip())).findFirst()
                .orElseThrow(() -> ApiException.notFound("Payment request " + paymentRequestId));
    }

    /**
     * A new payment request for the asset and network the customer picked: its own address and a fresh quote, as
     * the interface document says ("each one is a separate address and QR"), even for a pair the transaction
     * already has; earlier requests stay watched until they expire, and funds reaching them still count.
     */
    @Transactional
    public CreationResult pay(Caller caller, String transactionId, String asset, String network, String wallet) {
        Transaction tx = visible(access.scope(caller), transactionId, true);
        if (tx.state() == TransactionState.WAITING_FOR_KYC) {
            throw ApiException.conflict("invalid_state",
                    "The transaction waits for verification (status -3); submit it first.");
        }
        if (tx.state() != TransactionState.PENDING) {
            throw ApiException.conflict("invalid_state",
                    "A payment can only be requested while the transaction is pending (status " + tx.status + ").");
        }
        MerchantView merchant = access.ofTransaction(tx);
        requireEnabled(merchant);
        Validation v = new Validation();
        paymentRequests.checkAccepted(v, merchant.config, asset, network, "asset", "network");
        v.throwIfInvalid();

        PaymentRequest payment = paymentRequests.open(tx, merchant, asset, network, wallet);
        if (payment.expiration.isAfter(tx.expiration)) {
            tx.expiration = payment.expiration;
        }
        tx.updatedAt = payment.createdAt;
        events.publish(EventTypes.TRANSACTION_PAYMENT_REQUESTED, tx);
        return TransactionViews.created(tx, payment);
    }

    /**
     * Cancel (decisions §2): 0 → -2, or -4 with {@code forfeit}; -3 → -2 (nothing can have been received, so
     * forfeit changes nothing). A clean cancel of a transaction that received funds creates refund legs for all of
     * them ({@link RefundService#refundAllOnCancel}); a forfeit creates none. From a final state: 409 invalid_state.
     */
    @Transactional
    public TransactionView cancel(Caller caller, String transactionId, String reason, boolean forfeit) {
        Transaction tx = visible(access.scope(caller), transactionId, true);
        boolean forfeits = forfeit && tx.state() == TransactionState.PENDING;
        OffsetDateTime now = Clock.now();
        tx.moveTo(forfeits ? TransactionState.FORFEITED : TransactionState.CANCELLED);
        tx.cancellationReason = reason;
        tx.updatedAt = now;
        for (PaymentRequest request : PaymentRequest.ofTransaction(tx.id)) {
            if (request.state() == PaymentRequestState.AWAITING) {
                request.moveTo(PaymentRequestState.CANCELLED);
            }
        }
        if (!forfeits) {
            // Funds already received (confirmed or still confirming) go back: a clean cancel refunds them.
            refunds.refundAllOnCancel(tx, reason);
        }
        events.publish(forfeits ? EventTypes.TRANSACTION_FORFEITED : EventTypes.TRANSACTION_CANCELLED, tx);
        return TransactionViews.load(tx);
    }

    /** The caller's transaction (locked for a change when {@code forUpdate}); others' and unknown ids are 404. */
    public Transaction visible(CallerScope scope, String transactionId, boolean forUpdate) {
        return scope.transaction(transactionId, forUpdate);
    }

    static void requireEnabled(MerchantView merchant) {
        if (!merchant.enabled()) {
            throw ApiException.conflict("merchant_not_enabled", "The merchant is not enabled (status "
                    + merchant.status + ") and takes no new transactions or payments.");
        }
    }

    /** The creation's prefill with street1 and street2 joined (used by the REST layer). */
    public static CustomerDetails prefill(String firstName, String lastName, String email, String street1,
            String street2, String city, String region, String postalCode, String country) {
        String street = street1 == null || street1.isBlank() ? street2
                : street2 == null || street2.isBlank() ? street1 : street1 + ", " + street2;
        return new CustomerDetails(firstName, lastName, email, street, city, region, postalCode, country);
    }
}
