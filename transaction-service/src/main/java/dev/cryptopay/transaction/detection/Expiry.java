package dev.cryptopay.transaction.detection;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.support.lifecycle.Stopping;
import dev.cryptopay.support.time.IdleBackoff;
import dev.cryptopay.support.time.PacedJob;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.Settlement;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.service.Opened;
import dev.cryptopay.transaction.service.TransactionEvents;
import dev.cryptopay.transaction.view.TransactionRows;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Expiry (docs/decisions.md §2): payment requests still awaiting funds when their QR expires become -1; transactions
 * (0 or -3) whose {@code expiration} passed without full payment become -1 with a {@code transaction.expired}
 * event. A transaction with funds still confirming is left to its confirmations (it succeeds, or expires once they
 * are counted short). Rows are claimed with {@code for update skip locked}, so any number of replicas run this at
 * once without expiring anything twice, and a cancel or a watcher pass holding a transaction is never waited for.
 *
 * <p>While no transaction is open (0 or -3) and no payment request awaits funds, the runs back off like the watcher's
 * (docs/decisions.md §74): up to {@code cryptopay.detection.max-idle-interval} (30 s) between runs. While something is
 * open but nothing is due, the next run comes when the earliest of it falls due, within that cap (§126): a platform
 * with its transactions fifteen minutes from expiring is not read every second for them. A transaction or payment
 * request opened in this replica brings the runs back to every second until a run has seen it; one opened on another
 * replica is expired by that replica on time, here within the cap at the latest. The runs have a thread of their own,
 * which sleeps between them ({@link PacedJob}, §105).
 */
@ApplicationScoped
public class Expiry {

    private static final Logger LOG = Logger.getLogger(Expiry.class);

    /** How long after the earliest expiration the next run comes, to find it past ({@code expiration < now}). */
    private static final Duration DUE_MARGIN = Duration.ofMillis(10);

    private final EntityManager em;
    private final TransactionEvents events;
    private final TransactionServiceConfig config;
    private final Stopping stopping;

    /** Expiry's thread and the pace of its runs (§74, §105). */
    private final PacedJob job;

    public Expiry(EntityManager em, TransactionEvents events, TransactionServiceConfig config, Stopping stopping,
            @ConfigProperty(name = "cryptopay.detection.max-idle-interval", defaultValue = "30s") Duration maxIdle) {
        this.em = em;
        this.events = events;
        this.config = config;
        this.stopping = stopping;
        this.job = new PacedJob("expiry", new IdleBackoff(config.detection().expiryInterval(), maxIdle),
                timed -> !config.detection().enabled() || expireDue());
    }

    /** The first run comes three seconds after the start. */
    void start(@Observes StartupEvent event) {
        job.start(Duration.ofSeconds(3));
    }

    void stop(@Observes ShutdownEvent event) {
        job.stop();
    }

    /** A transaction or payment request was opened here: back to every second. */
    void onOpened(@Observes(during = TransactionPhase.AFTER_SUCCESS) Opened event) {
        job.wake();
    }

    /** The current delay between runs (for tests and the performance notes). */
    public Duration idleDelay() {
        return job.delay();
    }

    /**
     * Expires everything due, batch by batch; answers whether the run was idle (nothing expired), having told the job
     * when the next expiry falls due when anything is open.
     */
    private boolean expireDue() {
        try {
            int claimed;
            int expired = 0;
            // A full batch: there may be more, unless the service is stopping (its stop waits for the batch in hand
            // only, and the next start expires the rest).
            do {
                claimed = QuarkusTransaction.requiringNew().call(this::expireTransactions);
                expired += claimed;
            } while (claimed == config.detection().expiryBatch() && !stopping.now());
            do {
                claimed = QuarkusTransaction.requiringNew().call(this::expireRequests);
                expired += claimed;
            } while (claimed == config.detection().expiryBatch() && !stopping.now());
            if (expired > 0) {
                return false;
            }
            OffsetDateTime next = QuarkusTransaction.requiringNew().call(this::nextExpiration);
            if (next != null) {
                // Idle until then, not backing off past it; a run at the very microsecond would not yet see it past.
                job.dueIn(Duration.between(Clock.now(), next).plus(DUE_MARGIN));
            }
            return true;
        } catch (RuntimeException e) {
            stopping.paused(LOG, "Expiry paused until the next run: %s", e.getMessage());
            return false;
        }
    }

    /**
     * When the next expiry falls due: the earliest expiration of an open transaction (0 or -3) not held for review and
     * of a payment request awaiting funds; null when none is open (two reads of the partial indexes' first entries).
     * A transaction whose funds still confirm counts with its expiration: once that passed, the runs stay at every
     * second until its confirmations are counted, as they always did. One held for review waits for the operator, whose
     * release wakes the runs ({@code Compliance.release}).
     */
    OffsetDateTime nextExpiration() {
        return (OffsetDateTime) em.createNativeQuery("select least((select min(expiration) from transaction "
                + "where status in (0, -3) and not held_for_review), (select min(expiration) from payment_request "
                + "where status = :awaiting))", OffsetDateTime.class)
                .setParameter("awaiting", PaymentRequestState.AWAITING.wire()).getSingleResult();
    }

    /**
     * Expires one batch of transactions; answers how many were claimed. The batch's payment requests, transfers and
     * refunds are read in one query each and its events built from them: read per transaction, with a flush before
     * each read, a batch cost the square of its size (every flush checks every entity loaded so far) and expiry fell
     * behind the creations it had to follow (docs/decisions.md §93).
     */
    int expireTransactions() {
        OffsetDateTime now = Clock.now();
        @SuppressWarnings("unchecked")
        List<Transaction> due = em.createNativeQuery("select * from transaction where status in (0, -3) "
                + "and not held_for_review " // held for compliance review: the operator decides (§59)
                + "and expiration < :now and payment_status <> 2 order by expiration limit :limit "
                + "for update skip locked", Transaction.class)
                .setParameter("now", now).setParameter("limit", config.detection().expiryBatch()).getResultList();
        if (due.isEmpty()) {
            return 0;
        }
        TransactionRows rows = TransactionRows.of(due);
        for (Transaction tx : due) {
            List<PaymentRequest> requests = rows.payments(tx);
            for (PaymentRequest request : requests) {
                if (request.state() == PaymentRequestState.AWAITING) {
                    request.moveTo(PaymentRequestState.EXPIRED);
                }
            }
            tx.moveTo(TransactionState.EXPIRED);
            tx.updatedAt = now;
            Settlement.apply(tx, requests, rows.transfers(tx));
            events.publish(EventTypes.TRANSACTION_EXPIRED, tx, rows);
        }
        return due.size();
    }

    /**
     * Expires one batch of payment requests whose QR expired without funds (their transaction may go on): the move
     * AWAITING → EXPIRED of {@link PaymentRequestState}'s table, made in one statement for the whole batch.
     */
    int expireRequests() {
        return em.createNativeQuery("update payment_request set status = :expired where id in (select id from "
                + "payment_request where status = :awaiting and expiration < :now order by expiration limit :limit "
                + "for update skip locked)")
                .setParameter("expired", PaymentRequestState.EXPIRED.wire())
                .setParameter("awaiting", PaymentRequestState.AWAITING.wire())
                .setParameter("now", Clock.now()).setParameter("limit", config.detection().expiryBatch())
                .executeUpdate();
    }
}
