package dev.cryptopay.transaction.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.BillingRejection;
import dev.cryptopay.events.BillingRequest;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.Topics;
import dev.cryptopay.support.inbox.Inbox;
import dev.cryptopay.support.lifecycle.Stopping;
import dev.cryptopay.support.outbox.Outbox;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.time.IdleBackoff;
import dev.cryptopay.support.time.PacedJob;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.service.NewTransaction;
import dev.cryptopay.transaction.service.Opener;
import dev.cryptopay.transaction.service.TransactionService;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Currency;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Opens the transactions subscription-service asks for on {@code internal.billing.v1} ({@link BillingRequest}):
 * under the requested id, for the named merchant, by the same rules as {@code POST /transaction}. The transaction
 * events that follow on {@code payments.transactions.v1} are the answer.
 *
 * <ul>
 * <li>A request that can never succeed (unknown or disabled merchant, an asset it does not accept, an invalid
 * amount) is answered with a {@link BillingRejection} on the same topic.</li>
 * <li>A temporary failure (the merchant view lags, a rate is stale) parks the request in {@code billing_retry}
 * and the consumer goes on, so one such request never holds up the others; {@link #retry} tries it again with a
 * doubling pause and rejects it as {@code service_unavailable} after {@link #ATTEMPTS} tries (about 4 minutes).</li>
 * <li>Idempotent twice over: the inbox skips a redelivered event id, and an existing transaction with the
 * requested id is never created again.</li>
 * </ul>
 *
 * <p>The retry job runs every second while anything is parked. While nothing is, it backs off like expiry
 * (docs/decisions.md §98), up to {@code cryptopay.detection.max-idle-interval} (30 s), and a request parked in this
 * replica brings it back to every second after that commit. A request parked by another replica is retried by that
 * replica on time.
 */
@ApplicationScoped
public class BillingRequestConsumer {

    static final String CONSUMER = "transaction.billing";
    static final int ATTEMPTS = 8;
    static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    static final int RETRY_BATCH = 50;
    /** How often the retry job runs while anything is parked. */
    static final Duration RETRY_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = Logger.getLogger(BillingRequestConsumer.class);

    private final Inbox inbox;
    private final Outbox outbox;
    private final TransactionService transactions;
    private final ObjectMapper mapper;
    private final EntityManager em;
    /** The retries' thread and the pace of their runs (§105). */
    private final PacedJob job;
    private final Stopping stopping;

    public BillingRequestConsumer(Inbox inbox, Outbox outbox, TransactionService transactions, ObjectMapper mapper,
            EntityManager em, Stopping stopping,
            @ConfigProperty(name = "cryptopay.detection.max-idle-interval", defaultValue = "30s") Duration maxIdle) {
        this.inbox = inbox;
        this.outbox = outbox;
        this.transactions = transactions;
        this.mapper = mapper;
        this.em = em;
        this.stopping = stopping;
        this.job = new PacedJob("billing-retries", new IdleBackoff(RETRY_INTERVAL, maxIdle),
                timed -> retryAllDue());
    }

    /** The retry job's current delay between runs (for tests and the performance notes). */
    public Duration idleDelay() {
        return job.delay();
    }

    /** A failure worth trying again: nothing was written. */
    static final class Temporary extends RuntimeException {
        Temporary(String message) {
            super(message, null, false, false);
        }
    }

    public void onBillingEvent(String value) {
        CloudEvent event;
        BillingRequest request;
        try {
            event = CloudEvent.parse(value);
            if (!EventTypes.BILLING_TRANSACTION_REQUESTED.equals(event.type())) {
                return;
            }
            request = mapper.treeToValue(event.data(), BillingRequest.class);
        } catch (IllegalArgumentException | JsonProcessingException e) {
            LOG.warnf("skipping a billing record that is not a billing request: %s", e.getMessage());
            return;
        }
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                if (inbox.firstDelivery(CONSUMER, event.id())) {
                    open(request, event.time());
                }
            });
        } catch (Temporary e) {
            QuarkusTransaction.requiringNew().run(() -> {
                if (inbox.firstDelivery(CONSUMER, event.id())) {
                    park(event, value, e.getMessage());
                }
            });
            job.wake(); // committed: the retry job is back to every second
        } catch (ApiException e) {
            QuarkusTransaction.requiringNew().run(() -> {
                if (inbox.firstDelivery(CONSUMER, event.id())) {
                    reject(event.subject(), e.code(), e.getMessage());
                }
            });
        }
    }

    /** The first retry run comes two seconds after the start. */
    void start(@Observes StartupEvent event) {
        job.start(Duration.ofSeconds(2));
    }

    void stop(@Observes ShutdownEvent event) {
        job.stop();
    }

    /** Tries every parked request that is due, batch by batch; answers whether the run was idle (nothing parked). */
    private boolean retryAllDue() {
        try {
            int handled = 0;
            int batch;
            do {
                batch = retry();
                handled += batch;
            } while (batch == RETRY_BATCH); // a full batch: there may be more due
            return handled == 0 && nothingParked();
        } catch (RuntimeException e) {
            stopping.paused(LOG, "billing retries paused until the next run: %s", e.getMessage());
            return false;
        }
    }

    /** Whether no request waits for a retry at all, due or not. */
    boolean nothingParked() {
        return QuarkusTransaction.requiringNew().call(() -> (Boolean) em.createNativeQuery(
                "select not exists (select 1 from billing_retry)").getSingleResult());
    }

    /** Tries the parked requests that are due; answers how many it handled. */
    int retry() {
        List<String> due = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select cast(transaction_id as text) from billing_retry where next_attempt_at <= now() "
                        + "order by next_attempt_at limit " + RETRY_BATCH, String.class).getResultList());
        for (String id : due) {
            try {
                QuarkusTransaction.requiringNew().run(() -> retryOne(UUID.fromString(id)));
            } catch (RuntimeException e) {
                stopping.paused(LOG, "billing retry of %s paused until the next run: %s", id, e.getMessage());
            }
        }
        return due.size();
    }

    private void retryOne(UUID transactionId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("select payload, attempts from billing_retry "
                + "where transaction_id = :id and next_attempt_at <= now() for update skip locked")
                .setParameter("id", transactionId).getResultList();
        if (rows.isEmpty()) {
            return;
        }
        String payload = (String) rows.get(0)[0];
        int attempts = ((Number) rows.get(0)[1]).intValue();
        BillingRequest request;
        String requestedAt;
        try {
            CloudEvent event = CloudEvent.parse(payload);
            request = mapper.treeToValue(event.data(), BillingRequest.class);
            requestedAt = event.time();
        } catch (IllegalArgumentException | JsonProcessingException e) {
            forget(transactionId);
            return;
        }
        String error;
        String code = null;
        try {
            QuarkusTransaction.requiringNew().run(() -> open(request, requestedAt));
            forget(transactionId);
            return;
        } catch (Temporary e) {
            error = e.getMessage();
        } catch (ApiException e) {
            error = e.getMessage();
            code = e.code();
        }
        if (code != null || attempts + 1 >= ATTEMPTS) {
            forget(transactionId);
            reject(transactionId.toString(), code != null ? code : "service_unavailable", error);
            return;
        }
        em.createNativeQuery("update billing_retry set attempts = :attempts, last_error = :error, "
                + "next_attempt_at = :next where transaction_id = :id")
                .setParameter("attempts", attempts + 1).setParameter("error", truncate(error))
                .setParameter("next", Clock.now().plus(FIRST_PAUSE.multipliedBy(1L << (attempts + 1))))
                .setParameter("id", transactionId).executeUpdate();
    }

    private void park(CloudEvent event, String value, String why) {
        UUID transactionId;
        try {
            transactionId = UUID.fromString(event.subject());
        } catch (IllegalArgumentException | NullPointerException e) {
            return;
        }
        LOG.infof("billing request %s waits for a retry: %s", transactionId, why);
        OffsetDateTime now = Clock.now();
        em.createNativeQuery("insert into billing_retry (transaction_id, event_id, payload, attempts, last_error, "
                + "next_attempt_at, created_at) values (:id, :event, :payload, 1, :error, :next, :now) "
                + "on conflict (transaction_id) do nothing")
                .setParameter("id", transactionId).setParameter("event", event.id()).setParameter("payload", value)
                .setParameter("error", truncate(why)).setParameter("next", now.plus(FIRST_PAUSE))
                .setParameter("now", now).executeUpdate();
    }

    private void forget(UUID transactionId) {
        em.createNativeQuery("delete from billing_retry where transaction_id = :id")
                .setParameter("id", transactionId).executeUpdate();
    }

    /** Opens the transaction in the caller's transaction; {@link ApiException} for a refusal. */
    private void open(BillingRequest request, String requestedAt) {
        UUID id = uuid("transactionId", request.transactionId());
        UUID accountId = uuid("accountId", request.accountId());
        UUID merchantId = uuid("merchantId", request.merchantId());
        if (Transaction.findById(id) != null) {
            return;
        }
        requireInTime(request, requestedAt);
        Validation v = new Validation()
                .required("amount", request.amount())
                .requiredText("currency", request.currency()).currency("currency", request.currency())
                .requiredText("asset", request.asset()).asset("asset", request.asset())
                .requiredText("network", request.network()).network("network", request.network())
                .text("referenceNumber", request.referenceNumber(), Validation.MAX_STRING)
                .text("descriptor", request.descriptor(), Validation.MAX_STRING);
        BigDecimal amount = request.amount();
        Money.checkAmount(v, "amount", amount);
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
            transactions.open(id, merchant, transaction, Opener.BILLING);
        } catch (ApiException e) {
            if (e.status() == 503) {
                throw new Temporary(e.getMessage());
            }
            throw e;
        }
    }

    /**
     * A request older than its {@code openWithin} is rejected ({@code request_expired}): subscription-service fails an
     * attempt it has not heard of in time, and a transaction opened after that would take a payment nobody credits.
     */
    private static void requireInTime(BillingRequest request, String requestedAt) {
        if (request.openWithin() == null || requestedAt == null) {
            return;
        }
        Duration within;
        OffsetDateTime at;
        try {
            within = Duration.parse(request.openWithin());
            at = OffsetDateTime.parse(requestedAt);
        } catch (DateTimeParseException e) {
            throw ApiException.validation("openWithin", "must be an ISO-8601 duration after an RFC 3339 time");
        }
        if (Clock.now().isAfter(at.plus(within))) {
            throw ApiException.conflict("request_expired", "The billing request of " + requestedAt
                    + " was to be opened within " + within + "; subscription-service has given its attempt up.");
        }
    }

    private void reject(String transactionId, String code, String detail) {
        if (transactionId == null) {
            LOG.warnf("a billing request without a subject was refused: %s (%s)", code, detail);
            return;
        }
        LOG.warnf("billing transaction %s refused: %s (%s)", transactionId, code, detail);
        outbox.append(Topics.BILLING, EventTypes.BILLING_TRANSACTION_REJECTED, transactionId,
                new BillingRejection(transactionId, code, detail));
    }

    private static UUID uuid(String field, String value) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw ApiException.validation(field, "must be a UUID");
        }
    }

    private static String truncate(String text) {
        return text == null || text.length() <= 255 ? text : text.substring(0, 255);
    }
}
