package dev.cryptopay.transaction.service;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.TimeOrderedIds;
import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.jdbc.ConsistentReads;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.CustomerDetails;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.PaymentStatus;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.ResolutionLog;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.kyc.KycPolicy;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.rates.Rates;
import dev.cryptopay.transaction.screening.ScreeningResult;
import dev.cryptopay.transaction.view.CreationResult;
import dev.cryptopay.transaction.view.TransactionView;
import dev.cryptopay.transaction.view.TransactionViews;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.persistence.LockModeType;
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

    private static final TypeReference<CreationResult> CREATION = new TypeReference<>() {
    };

    private final MerchantAccess access;
    private final PaymentRequests paymentRequests;
    private final Rates rates;
    private final TransactionEvents events;
    private final TransactionServiceConfig config;
    private final ConsistentReads consistentReads;
    private final RefundService refunds;
    private final OpenTransactionQuota quota;
    private final Compliance compliance;
    private final Event<Opened> opened;
    private final IdempotentCreations creations;

    public TransactionService(MerchantAccess access, PaymentRequests paymentRequests, Rates rates,
            TransactionEvents events, TransactionServiceConfig config, ConsistentReads consistentReads,
            RefundService refunds, OpenTransactionQuota quota, Compliance compliance, Event<Opened> opened,
            IdempotentCreations creations) {
        this.opened = opened;
        this.creations = creations;
        this.compliance = compliance;
        this.quota = quota;
        this.refunds = refunds;
        this.consistentReads = consistentReads;
        this.access = access;
        this.paymentRequests = paymentRequests;
        this.rates = rates;
        this.events = events;
        this.config = config;
    }

    /** {@code POST /transaction}: once per caller and Idempotency-Key ({@code idempotencyKey} may be null). */
    @Transactional
    public IdempotentCreations.Once<CreationResult> create(Caller caller, NewTransaction request,
            String idempotencyKey) {
        CallerScope scope = access.scope(caller);
        MerchantView merchant = access.forCreation(scope);
        Opener opener = scope.apiKey() ? Opener.API_KEY : Opener.PUBLISHABLE_KEY;
        return creations.once(caller, idempotencyKey, request, CREATION,
                () -> open(TimeOrderedIds.next(), merchant, request, opener));
    }

    /**
     * Opens a transaction under {@code id} for {@code merchant}, with the merchant's rules (accepted assets, FX
     * permission, the KYC gate, the quota of open transactions) and its events: what {@code POST /transaction} does
     * once the caller is known. Billing requests of subscription-service come in here too ({@link Opener#BILLING}: they
     * never carry an fxRate; at the quota they are rejected like any other refusal).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public CreationResult open(UUID id, MerchantView merchant, NewTransaction request, Opener opener) {
        requireEnabled(merchant);
        MerchantConfiguration config = merchant.config;

        Validation v = new Validation();
        paymentRequests.checkAccepted(v, config, request.asset(), request.network(), "asset", "network");
        v.throwIfInvalid();
        quota.checkRoomFor(merchant);
        if (request.fxRate() != null) {
            if (opener != Opener.API_KEY) {
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
        tx.billing = opener == Opener.BILLING;
        tx.createdAt = now;
        tx.updatedAt = now;

        KycPolicy.Decision kyc = KycPolicy.decide(config, request.amount());
        tx.kycTriggered = kyc.kycTriggered();
        tx.travelRuleTriggered = kyc.travelRuleTriggered();
        if (kyc.verificationRequired()) {
            tx.start(TransactionState.WAITING_FOR_KYC);
            tx.requiredFields = KycPolicy.requiredFields(request.prefill(), kyc.travelRuleTriggered());
            tx.expiration = now.plus(this.config.kycExpiration());
            events.publishCreated(EventTypes.TRANSACTION_CREATED, tx, List.of());
            events.publishCreated(EventTypes.TRANSACTION_KYC_REQUIRED, tx, List.of());
            tx.persist(); // with its final values: one insert, no update (§73)
            opened.fire(Opened.withoutRequest()); // expiry stops idling after the commit (docs/decisions.md §74)
            return TransactionViews.waitingForKyc(tx);
        }
        tx.start(TransactionState.PENDING);
        tx.requiredFields = List.of();
        // Nothing is read back, and each row is persisted once it holds its final values, so the commit writes
        // them with one insert each (an entity changed after persist() gets an update too; §73).
        PaymentRequest payment = paymentRequests.firstOfNew(tx, merchant, request.asset(), request.network());
        tx.expiration = payment.expiration;
        events.publishCreated(EventTypes.TRANSACTION_CREATED, tx, List.of(payment));
        tx.persist();
        paymentRequests.persist(payment); // after the transaction it refers to
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

        ScreeningResult walletVerdict = null;
        if (wallet != null && !wallet.isBlank()) {
            // The payer wallet is screened (docs/decisions.md §60); a custodial one may need verification (§62).
            walletVerdict = compliance.screenWallet(network, wallet.strip());
            if (walletVerdict != null && walletVerdict.custodial() && tx.kycDetails == null) {
                KycPolicy.Decision gate = KycPolicy.decide(merchant.config, tx.totalLocal, true);
                if (gate.verificationRequired()) {
                    return custodialVerification(tx, gate, walletVerdict);
                }
            }
        }
        PaymentRequest payment = paymentRequests.open(tx, merchant, asset, network, wallet);
        payment.fraudPass = walletVerdict == null ? null : walletVerdict.passes();
        if (payment.expiration.isAfter(tx.expiration)) {
            tx.expiration = payment.expiration;
        }
        tx.updatedAt = payment.createdAt;
        events.publish(EventTypes.TRANSACTION_PAYMENT_REQUESTED, tx);
        return TransactionViews.created(tx, payment);
    }

    /**
     * 0 → -3 for a payer wallet that screening lists as a custodial exchange when the custodial KYC or travel-rule
     * threshold applies (docs/decisions.md §62): the answer carries {@code requiredFields} and no address; the
     * verification opens the payment request.
     */
    private CreationResult custodialVerification(Transaction tx, KycPolicy.Decision gate, ScreeningResult verdict) {
        OffsetDateTime now = Clock.now();
        tx.moveTo(TransactionState.WAITING_FOR_KYC);
        tx.kycTriggered = tx.kycTriggered || gate.kycTriggered();
        tx.travelRuleTriggered = tx.travelRuleTriggered || gate.travelRuleTriggered();
        tx.requiredFields = KycPolicy.requiredFields(tx.prefill, tx.travelRuleTriggered);
        tx.expiration = now.plus(config.kycExpiration());
        tx.updatedAt = now;
        Compliance.log(tx, new Compliance.Decision(Compliance.Action.NONE, ResolutionLog.Trigger.CUSTODIAL,
                gate.kycTriggered() ? "kycThresholdCustodial" : "travelRulesRegionalThresholdCustodial",
                gate.kycTriggered() ? gate.kycThreshold() : gate.travelRuleThreshold(),
                "payer wallet custodial-exchange " + verdict.exchangeName() + " " + verdict.source()),
                ResolutionLog.Outcome.VERIFICATION_REQUIRED, ResolutionLog.SYSTEM);
        events.publish(EventTypes.TRANSACTION_KYC_REQUIRED, tx);
        return TransactionViews.waitingForKyc(tx);
    }

    /** Transactions held for compliance review, oldest change first (operator; optionally of one account). */
    @Transactional
    public TransactionListing.Listing held(PageRequest page, UUID accountId) {
        consistentReads.begin(); // the count, the page and each one's requests, transfers and refunds
        var query = accountId == null
                ? Transaction.<Transaction>find("heldForReview = true and status = 0",
                        Sort.by("updatedAt").and("id"))
                : Transaction.<Transaction>find("heldForReview = true and status = 0 and accountId = ?1",
                        Sort.by("updatedAt").and("id"), accountId);
        long total = query.count();
        List<TransactionView> views = query.page(Page.of(page.index(), page.limit())).list().stream()
                .map(tx -> TransactionViews.load(tx).withoutKycDetails()).toList();
        return new TransactionListing.Listing(views, page.metadata(total, views.size()));
    }

    /** The operator releases a held transaction (→ 1 when its funds cover the amount; docs/decisions.md §59). */
    @Transactional
    public TransactionView release(String transactionId, String operator, String reason) {
        Transaction tx = operatorTransaction(transactionId);
        compliance.release(tx, operator, reason);
        return TransactionViews.load(tx).withoutKycDetails(); // personal data only through the API key (§49)
    }

    /** The operator refunds a held transaction (→ -2 with refund legs for everything received). */
    @Transactional
    public TransactionView refundHeld(String transactionId, String operator, String reason) {
        Transaction tx = operatorTransaction(transactionId);
        compliance.refundHeld(tx, operator, reason);
        return TransactionViews.load(tx).withoutKycDetails(); // personal data only through the API key (§49)
    }

    private static Transaction operatorTransaction(String transactionId) {
        UUID id;
        try {
            id = UUID.fromString(transactionId.strip());
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("Transaction " + transactionId);
        }
        return Transaction.<Transaction>findByIdOptional(id, LockModeType.PESSIMISTIC_WRITE)
                .orElseThrow(() -> ApiException.notFound("Transaction " + transactionId));
    }

    /**
     * Cancel (docs/decisions.md §2): 0 → -2, or -4 with {@code forfeit}; -3 → -2 (nothing can have been received, so
     * forfeit changes nothing). A clean cancel of a transaction that received funds creates refund legs for all of
     * them ({@link RefundService#refundAllOnCancel}); a forfeit creates none. From a final state: 409 invalid_state.
     */
    @Transactional
    public TransactionView cancel(Caller caller, String transactionId, String reason, boolean forfeit) {
        Transaction tx = visible(access.scope(caller), transactionId, true);
        tx.requireNotHeld();
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
