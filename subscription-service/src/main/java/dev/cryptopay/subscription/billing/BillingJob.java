package dev.cryptopay.subscription.billing;

import dev.cryptopay.subscription.config.SubscriptionConfig;
import dev.cryptopay.subscription.domain.AttemptResult;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionPayment;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The billing job, safe with any number of replicas. Each pass, in transactions of at most
 * {@code billing-batch-size} rows:
 * <ol>
 * <li>bills every CREATED or ACTIVE subscription whose {@code nextBillingAt} has come and that has no payment open:
 * a PENDING payment for its period and its first attempt;</li>
 * <li>opens the next attempt of every payment whose retry is due (its subscription neither paused nor canceled);</li>
 * <li>fails attempts transaction-service neither opened nor rejected within {@code attempt-open-timeout}.</li>
 * </ol>
 * Rows are claimed with {@code for update skip locked}, so two replicas never take the same one, and a claimed
 * subscription leaves the due set in the same transaction ({@code open_payment_id}); the unique
 * (subscription, period) key of the payments makes a second bill for one period impossible in any case.
 */
@ApplicationScoped
public class BillingJob {

    private static final Logger LOG = Logger.getLogger(BillingJob.class);

    private final EntityManager em;
    private final BillingClock clock;
    private final SubscriptionConfig config;
    private final Billing billing;
    private final Outcomes outcomes;
    private volatile boolean stopping;

    public BillingJob(EntityManager em, BillingClock clock, SubscriptionConfig config, Billing billing,
            Outcomes outcomes) {
        this.em = em;
        this.clock = clock;
        this.config = config;
        this.billing = billing;
        this.outcomes = outcomes;
    }

    @Scheduled(every = "${cryptopay.subscriptions.billing-job-interval:10s}", delayed = "3s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        if (!config.billingJobEnabled() || stopping) {
            return;
        }
        try {
            runOnce();
        } catch (RuntimeException e) {
            LOG.warnf("billing pass failed, the next one retries: %s", e.getMessage());
        }
    }

    /** At shutdown the database goes away first; passes stop here rather than fail until the process exits. */
    void stop(@Observes ShutdownEvent event) {
        stopping = true;
    }

    /** What one pass did. */
    public record Pass(int billed, int retried, int timedOut) {
    }

    /** One full pass; answers how many subscriptions it billed, retries it opened and attempts it timed out. */
    public Pass runOnce() {
        int billed = 0;
        int batch;
        do {
            batch = QuarkusTransaction.requiringNew().call(this::billDue);
            billed += batch;
        } while (batch == config.billingBatchSize());
        int retried = 0;
        do {
            batch = QuarkusTransaction.requiringNew().call(this::openDueRetries);
            retried += batch;
        } while (batch == config.billingBatchSize());
        int timedOut = timeOutUnopened();
        if (billed + retried + timedOut > 0) {
            LOG.infof("billing pass: %d billed, %d retries opened, %d attempts timed out", billed, retried, timedOut);
        }
        return new Pass(billed, retried, timedOut);
    }

    int billDue() {
        OffsetDateTime now = clock.now();
        @SuppressWarnings("unchecked")
        List<UUID> ids = em.createNativeQuery("select id from subscription where status in ('CREATED', 'ACTIVE') "
                + "and open_payment_id is null and next_billing_at <= ?1 order by next_billing_at, id limit ?2 "
                + "for update skip locked", UUID.class)
                .setParameter(1, now).setParameter(2, config.billingBatchSize()).getResultList();
        for (UUID id : ids) {
            Subscription s = em.find(Subscription.class, id);
            SubscriptionPayment p = billing.newPayment(s, now);
            billing.openAttempt(s, p, now);
        }
        return ids.size();
    }

    int openDueRetries() {
        OffsetDateTime now = clock.now();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("select s.id as subscription_id, p.id as payment_id "
                + "from subscription_payment p join subscription s on s.id = p.subscription_id "
                + "where p.next_attempt_at <= ?1 and p.open_attempt_id is null "
                + "and p.status in ('PENDING', 'PARTIALLY_PAID') "
                + "and s.status in ('CREATED', 'ACTIVE', 'PAYMENT_FAILED') "
                + "order by p.next_attempt_at, p.id limit ?2 for update of s, p skip locked")
                .setParameter(1, now).setParameter(2, config.billingBatchSize()).getResultList();
        for (Object[] row : rows) {
            Subscription s = em.find(Subscription.class, row[0]);
            SubscriptionPayment p = em.find(SubscriptionPayment.class, row[1]);
            billing.openAttempt(s, p, now);
        }
        return rows.size();
    }

    /**
     * Fails the attempts transaction-service has not opened in time, each in a transaction of its own: it locks the
     * attempt's subscription, payment and attempt as the consumer of transaction events does, and the consumer holds
     * a whole poll's subscriptions at once. Holding one attempt's locks at a time, the job can wait for the consumer
     * but never hold what the consumer waits for while it does: no deadlock, which would stop the consumer's channel.
     */
    @SuppressWarnings("unchecked")
    int timeOutUnopened() {
        OffsetDateTime cutoff = clock.now().minus(config.attemptOpenTimeout());
        List<UUID> ids = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select id from payment_attempt where result = 'REQUESTED' and started_at < ?1 order by started_at "
                        + "limit ?2", UUID.class)
                .setParameter(1, cutoff).setParameter(2, config.billingBatchSize()).getResultList());
        int count = 0;
        for (UUID id : ids) {
            count += QuarkusTransaction.requiringNew().call(() -> {
                var locked = outcomes.lock(id);
                if (locked.isEmpty() || locked.get().attempt().result != AttemptResult.REQUESTED) {
                    return 0; // opened (or settled) in the meantime
                }
                outcomes.failed(locked.get(), "transaction_not_opened: transaction-service did not open the "
                        + "transaction within " + config.attemptOpenTimeout(), null);
                return 1;
            });
        }
        return count;
    }
}
