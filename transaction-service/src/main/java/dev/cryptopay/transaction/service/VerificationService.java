package dev.cryptopay.transaction.service;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.domain.CustomerDetails;
import dev.cryptopay.transaction.domain.KycCustomer;
import dev.cryptopay.transaction.domain.KycDetails;
import dev.cryptopay.transaction.domain.KycDocument;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.kyc.KycPolicy;
import dev.cryptopay.transaction.view.CreationResult;
import dev.cryptopay.transaction.view.TransactionViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Verification of a transaction waiting for KYC (decisions §11): every field is required, taken from the
 * submission or else from the creation's {@code optional} prefill; the sandbox accepts every complete
 * submission. Acceptance stores the documents and details, moves -3 → 0 and opens the first payment request.
 */
@ApplicationScoped
public class VerificationService {

    private final TransactionService transactions;
    private final MerchantAccess access;
    private final PaymentRequests paymentRequests;
    private final TransactionEvents events;

    public VerificationService(TransactionService transactions, MerchantAccess access,
            PaymentRequests paymentRequests, TransactionEvents events) {
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
        MerchantView merchant = access.ofTransaction(tx);
        paymentRequests.checkAccepted(v, merchant.config, asset, network, "asset", "network");
        v.throwIfInvalid();
        TransactionService.requireEnabled(merchant);

        OffsetDateTime now = Clock.now();
        List<KycDetails.Document> stored = new ArrayList<>();
        String[] sides = { "front", "rear" };
        for (int i = 0; i < submission.documents().size(); i++) {
            Verification.Document file = submission.documents().get(i);
            KycDocument document = new KycDocument();
            document.id = UUID.randomUUID();
            document.transactionId = tx.id;
            document.side = sides[i];
            document.contentType = file.format().mediaType();
            document.sizeBytes = file.content().length;
            document.content = file.content();
            document.createdAt = now;
            document.persist();
            stored.add(new KycDetails.Document(document.id.toString(), document.side, document.contentType,
                    document.sizeBytes));
        }
        KycDetails details = new KycDetails(KycDetails.ACCEPTED, submission.documentType(), List.copyOf(stored),
                customer, submission.storeKYC(), TransactionViews.time(now));
        if (submission.storeKYC()) {
            storeCustomer(tx, details, now);
        }
        tx.kycDetails = details;
        tx.requiredFields = List.of();
        tx.moveTo(TransactionState.PENDING);
        tx.updatedAt = now;
        PaymentRequest payment = paymentRequests.open(tx, merchant, asset, network, null);
        tx.expiration = payment.expiration;
        events.publish(EventTypes.TRANSACTION_VERIFIED, tx);
        return TransactionViews.created(tx, payment);
    }

    private static void storeCustomer(Transaction tx, KycDetails details, OffsetDateTime now) {
        KycCustomer.Key key = new KycCustomer.Key(tx.accountId, details.customer().email().toLowerCase(Locale.ROOT));
        KycCustomer customer = KycCustomer.<KycCustomer>findByIdOptional(key).orElseGet(() -> {
            KycCustomer fresh = new KycCustomer();
            fresh.key = key;
            fresh.createdAt = now;
            return fresh;
        });
        customer.details = details;
        customer.lastTransactionId = tx.id;
        customer.updatedAt = now;
        customer.persist();
    }
}
