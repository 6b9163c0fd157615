package dev.cryptopay.transaction.messaging;

import dev.cryptopay.events.BillingRejection;
import dev.cryptopay.events.BillingRequest;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.Topics;
import dev.cryptopay.support.inbox.Inbox;
import dev.cryptopay.support.outbox.Outbox;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.service.NewTransaction;
import dev.cryptopay.transaction.service.TransactionService;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Currency;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Opens the transactions subscription-service asks for on {@code internal.billing.v1} ({@link BillingRequest}):
 * under the requested id, for the named merchant, by the same rules as {@code POST /transaction}. The transaction
 * events that follow on {@code payments.transactions.v1} are the answer. A request that can never succeed (unknown
 * or disabled merchant, an asset it does not accept, an invalid amount) is answered with a
 * {@link BillingRejection} on the same topic; a temporary failure (the merchant view lags, a rate is stale) is
 * retried with a growing pause, and rejected as {@code service_unavailable} only after {@link #ATTEMPTS} tries.
 *
 * <p>Idempotent twice over: the inbox skips a redelivered event id, and an existing transaction with the requested
 * id is never created again.
 */
@ApplicationScoped
public class BillingRequestConsumer {

    public static final String CHANNEL = "billing-in";
    static final String CONSUMER = "transaction.billing";
    static final int ATTEMPTS = 8;
    private static final Logger LOG = Logger.getLogger(BillingRequestConsumer.class);

    private final Inbox inbox;
    private final Outbox outbox;
    private final TransactionService transactions;

    public BillingRequestConsumer(Inbox inbox, Outbox outbox, TransactionService transactions) {
        this.inbox = inbox;
        this.outbox = outbox;
        this.transactions = transactions;
    }

    /** A failure worth trying again: nothing was written. */
    static final class Temporary extends RuntimeException {
        Temporary(String message) {
            super(message, null, false, false);
        }
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    public void onBillingEvent(String value) {
        Duration pause = Duration.ofMillis(250);
        for (int attempt = 1;; attempt++) {
            try {
                QuarkusTransaction.requiringNew().run(() -> apply(value));
                return;
            } catch (Temporary e) {
                if (attempt >= ATTEMPTS) {
                    reject(value, "service_unavailable", e.getMessage());
                    return;
                }
                LOG.infof("billing request not applied yet (%s); trying again in %d ms", e.getMessage(),
                        pause.toMillis());
                sleep(pause);
                pause = pause.multipliedBy(2);
            } catch (ApiException e) {
                reject(value, e.code(), e.getMessage());
                return;
            }
        }
    }

    /** Applies one record value in the caller's transaction; throws {@link ApiException} for a refusal. */
    void apply(String value) {
        inbox.accept(CONSUMER, value, EventTypes.BILLING_TRANSACTION_REQUESTED, BillingRequest.class)
                .ifPresent(this::open);
    }

    private void open(BillingRequest request) {
        UUID id = uuid("transactionId", request.transactionId());
        UUID accountId = uuid("accountId", request.accountId());
        UUID merchantId = uuid("merchantId", request.merchantId());
        if (Transaction.findById(id) != null) {
            return;
        }
        Validation v = new Validation()
                .required("amount", request.amount())
                .requiredText("currency", request.currency()).currency("currency", request.currency())
                .requiredText("asset", request.asset()).asset("asset", request.asset())
                .requiredText("network", request.network()).network("network", request.network())
                .text("referenceNumber", request.referenceNumber(), Validation.MAX_STRING)
                .text("descriptor", request.descriptor(), Validation.MAX_STRING);
        BigDecimal amount = request.amount();
        if (amount != null && (amount.signum() <= 0 || amount.compareTo(Money.MAX_AMOUNT) > 0)) {
            v.add("amount", "must be greater than 0 and at most 1000000000000");
        }
        v.throwIfInvalid();
        MerchantView merchant = MerchantView.findById(merchantId);
        if (merchant == null) {
            throw new Temporary("merchant " + merchantId + " is not in the merchant view yet");
        }
        if (!merchant.accountId.equals(accountId)) {
            throw ApiException.conflict("merchant_unknown", "Merchant " + merchantId + " is not of account "
                    + accountId + ".");
        }
        int digits = Currency.getInstance(request.currency()).getDefaultFractionDigits();
        BigDecimal scaled = digits >= 0 && amount.scale() < digits ? amount.setScale(digits) : amount;
        NewTransaction transaction = new NewTransaction(request.descriptor(), request.referenceNumber(), scaled,
                request.currency(), request.asset(), request.network(), null, null, null);
        try {
            transactions.open(id, merchant, transaction, false);
        } catch (ApiException e) {
            if (e.status() == 503) {
                throw new Temporary(e.getMessage());
            }
            throw e;
        }
    }

    /** Records the refusal: the event is marked as handled and the rejection published, in one transaction. */
    private void reject(String value, String code, String detail) {
        CloudEvent event;
        try {
            event = CloudEvent.parse(value);
        } catch (IllegalArgumentException e) {
            LOG.warnf("skipping a billing record that is not a CloudEvent: %s", e.getMessage());
            return;
        }
        String transactionId = event.subject();
        LOG.warnf("billing transaction %s refused: %s (%s)", transactionId, code, detail);
        QuarkusTransaction.requiringNew().run(() -> {
            if (inbox.firstDelivery(CONSUMER, event.id())) {
                outbox.append(Topics.BILLING, EventTypes.BILLING_TRANSACTION_REJECTED, transactionId,
                        new BillingRejection(transactionId, code, detail));
            }
        });
    }

    private static UUID uuid(String field, String value) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw ApiException.validation(field, "must be a UUID");
        }
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Temporary("interrupted");
        }
    }
}
