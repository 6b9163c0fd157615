package dev.cryptopay.transaction.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.CustomerDetails;
import dev.cryptopay.transaction.domain.KycCustomer;
import dev.cryptopay.transaction.domain.KycDetails;
import dev.cryptopay.transaction.domain.KycDocument;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.ResolutionLog;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.kyc.KycPolicy;
import dev.cryptopay.transaction.restore.RestoreCodes;
import dev.cryptopay.transaction.view.CreationResult;
import dev.cryptopay.transaction.view.TransactionViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Verification of a transaction waiting for KYC (docs/decisions.md §11): every field is required, taken from the
 * submission or else from the creation's {@code optional} prefill; the sandbox accepts every complete
 * submission. Acceptance stores the documents and details, moves -3 → 0 and opens the first payment request.
 */
@ApplicationScoped
public class VerificationService {

    private final TransactionService transactions;
    private final MerchantAccess access;
    private final PaymentRequests paymentRequests;
    private final TransactionEvents events;
    private final KycDocuments documents;
    private final EntityManager em;
    private final ObjectMapper json;
    private final RestoreCodes restoreCodes;

    public VerificationService(TransactionService transactions, MerchantAccess access,
            PaymentRequests paymentRequests, TransactionEvents events, KycDocuments documents, EntityManager em,
            ObjectMapper json, RestoreCodes restoreCodes) {
        this.restoreCodes = restoreCodes;
        this.documents = documents;
        this.em = em;
        this.json = json;
        this.transactions = transactions;
        this.access = access;
        this.paymentRequests = paymentRequests;
        this.events = events;
    }

    @Transactional
    public CreationResult verify(Caller caller, String transactionId, Verification submission) {
        Transaction tx = transactions.visible(access.scope(caller), transactionId, true);
        if (tx.state() != TransactionState.WAITING_FOR_KYC) {
            throw ApiException.conflict("invalid_state", "Only a transaction waiting for verification (status -3) "
                    + "takes one; this one has status " + tx.status + ".");
        }
        CustomerDetails customer = (tx.prefill == null ? CustomerDetails.empty() : tx.prefill)
                .overriddenBy(submission.customer());
        String asset = submission.asset() != null ? submission.asset() : tx.requestedAsset;
        String network = submission.network() != null ? submission.network() : tx.requestedNetwork;

        Validation v = new Validation()
                .requiredText("firstName", customer.firstName())
                .requiredText("lastName", customer.lastName())
                .requiredText("email", customer.email())
                .email("email", customer.email())
                .requiredText("street", customer.street())
                .requiredText("city", customer.city())
                .requiredText("region", customer.region())
                .requiredText("postalCode", customer.postalCode())
                .requiredText("country", customer.country())
                .country("country", customer.country())
                .requiredText("documentType", submission.documentType())
                .oneOf("documentType", submission.documentType(), KycPolicy.SUPPORTED_DOCUMENT_TYPES);
        if (submission.documents().isEmpty()) {
            v.add("documentFiles", "is required: the front (and, for two-sided documents, the rear) of the document");
        }
        travelRule(v, tx, submission.originatorWallet());
        MerchantView merchant = access.ofTransaction(tx);
        paymentRequests.checkAccepted(v, merchant.config, asset, network, "asset", "network");
        v.throwIfInvalid();
        TransactionService.requireEnabled(merchant);

        OffsetDateTime now = Clock.now();
        List<KycDetails.Document> stored = new ArrayList<>();
        String[] sides = { "front", "rear" };
        for (int i = 0; i < submission.documents().size(); i++) {
            Verification.Document file = submission.documents().get(i);
            KycDocument document = documents.store(tx.id, sides[i], file.format().mediaType(), file.content(), now);
            stored.add(new KycDetails.Document(document.id.toString(), document.side, document.contentType,
                    document.sizeBytes));
        }
        KycDetails details = new KycDetails(KycDetails.ACCEPTED, submission.documentType(), List.copyOf(stored),
                customer, submission.storeKYC(), TransactionViews.time(now),
                tx.travelRuleTriggered ? submission.originatorWallet() : null, null);
        if (submission.storeKYC()) {
            storeCustomer(tx, details, now);
        }
        return accept(tx, merchant, details, asset, network, now);
    }

    /**
     * KYC restore (docs/decisions.md §64): a returning customer's one-time code, sent to the e-mail of their stored
     * record (§45), completes the verification of a transaction in -3 with the stored details, without documents.
     * Answers exactly as a verification does. The code is checked first; any other failure leaves it unused.
     */
    @Transactional
    public CreationResult restore(Caller caller, String transactionId, String email, String code, String asset,
            String network, String originatorWallet) {
        Transaction tx = transactions.visible(access.scope(caller), transactionId, true);
        if (tx.state() != TransactionState.WAITING_FOR_KYC) {
            throw ApiException.conflict("invalid_state", "Only a transaction waiting for verification (status -3) "
                    + "takes one; this one has status " + tx.status + ".");
        }
        String payAsset = asset != null ? asset : tx.requestedAsset;
        String payNetwork = network != null ? network : tx.requestedNetwork;
        Validation v = new Validation();
        travelRule(v, tx, originatorWallet);
        MerchantView merchant = access.ofTransaction(tx);
        paymentRequests.checkAccepted(v, merchant.config, payAsset, payNetwork, "asset", "network");
        v.throwIfInvalid();
        TransactionService.requireEnabled(merchant);

        OffsetDateTime now = Clock.now();
        restoreCodes.redeem(tx.id, email, code, now);
        KycCustomer stored = KycCustomer.findById(new KycCustomer.Key(tx.accountId, email.toLowerCase(Locale.ROOT)),
                LockModeType.PESSIMISTIC_WRITE);
        if (stored == null) {
            throw RestoreCodes.invalid(); // a code guessed for an e-mail without a record: the same answer
        }
        KycDetails kept = stored.details;
        KycDetails details = new KycDetails(KycDetails.ACCEPTED, kept.documentType(), kept.documents(),
                kept.customer(), true, TransactionViews.time(now),
                tx.travelRuleTriggered ? originatorWallet : null, stored.lastTransactionId.toString());
        stored.lastTransactionId = tx.id;
        stored.updatedAt = now;
        tx.logResolution(new ResolutionLog(TransactionViews.time(now), ResolutionLog.Trigger.KYC, "storeKYC", null,
                ResolutionLog.Outcome.RESTORED, ResolutionLog.SYSTEM, "verification restored by e-mail code"));
        return accept(tx, merchant, details, payAsset, payNetwork, now);
    }

    /** Travel rule (docs/decisions.md §66): the paying wallet is required when the transaction's travel rule applies. */
    private static void travelRule(Validation v, Transaction tx, String originatorWallet) {
        if (tx.travelRuleTriggered) {
            v.requiredText(KycPolicy.ORIGINATOR_WALLET, originatorWallet);
        }
        if (originatorWallet != null && !WALLET.matcher(originatorWallet).matches()) {
            v.add(KycPolicy.ORIGINATOR_WALLET, "must be a wallet address (letters and digits, 20 to 128 characters)");
        }
    }

    private static final java.util.regex.Pattern WALLET = java.util.regex.Pattern.compile("[A-Za-z0-9:]{20,128}");

    /** The accepted verification's common end: -3 → 0, the first payment request, {@code transaction.verified}. */
    private CreationResult accept(Transaction tx, MerchantView merchant, KycDetails details, String asset,
            String network, OffsetDateTime now) {
        tx.kycDetails = details;
        tx.requiredFields = List.of();
        tx.moveTo(TransactionState.PENDING);
        tx.updatedAt = now;
        PaymentRequest payment = paymentRequests.open(tx, merchant, asset, network, null);
        tx.expiration = payment.expiration;
        events.publish(EventTypes.TRANSACTION_VERIFIED, tx);
        return TransactionViews.created(tx, payment);
    }

    /**
     * Keeps a returning customer's details under their e-mail, once: a record that already exists for the e-mail
     * within the account is never overwritten, so whoever knows a customer's e-mail cannot replace (or poison) the
     * stored identity with a new submission. Only the e-mail one-time code of the compliance issue may restore or
     * replace it later (docs/decisions.md §45).
     */
    private void storeCustomer(Transaction tx, KycDetails kyc, OffsetDateTime now) {
        String details;
        try {
            details = json.writeValueAsString(kyc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("KYC details not serialisable", e);
        }
        // One statement, so two first submissions for the same e-mail racing each other keep one record, not a 500.
        em.createNativeQuery("insert into kyc_customer (account_id, email, details, last_transaction_id, created_at, "
                + "updated_at) values (:account, :email, cast(:details as jsonb), :tx, :now, :now) "
                + "on conflict (account_id, email) do nothing")
                .setParameter("account", tx.accountId)
                .setParameter("email", kyc.customer().email().toLowerCase(Locale.ROOT))
                .setParameter("details", details)
                .setParameter("tx", tx.id)
                .setParameter("now", now)
                .executeUpdate();
    }
}
