package dev.cryptopay.support.lifecycle;

import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Whether this service is stopping, for the background jobs that log a failed run and try again at the next one
 * (expiry, refund payouts, billing retries; the outbox relay and the mail sender have a stop flag of their own and call
 * {@link #logPaused} with it).
 *
 * <p>Quarkus fires {@link ShutdownEvent} before it closes the datasources and the EntityManagerFactory, and a run in
 * progress then fails with "EntityManagerFactory is closed". Its database transaction rolls back and the next start
 * takes the work up again, so nothing is wrong; a WARN at every stop would tell operators otherwise, and teach them
 * to ignore the same WARN when it means a database that is down. So once the service is stopping such a failure is
 * logged at DEBUG (docs/decisions.md §103).
 *
 * <p>The consumers' {@code BatchRetry} waits on it between attempts at storing a batch, so that the stop ends a wait
 * under way (docs/decisions.md §80).
 *
 * <p>A consumer's batch in hand when the stop begins is let finish ({@link #takeBatch}): the stop waits up to
 * {@code cryptopay.stop.batch-wait} ({@link StopConfig}, 5 s by default) for it, after the service's own observers of
 * the stop and before Quarkus closes the datasources, and no batch starts once the service is stopping
 * (docs/decisions.md §119). Without the wait a batch still being stored met the closing datasource: its transaction
 * rolled back with WARNs from the pool and the transaction manager, and the messaging layer, running on after the
 * container had stopped, logged an ERROR.
 */
@Singleton
public class Stopping {

    private static final Logger LOG = Logger.getLogger(Stopping.class);

    private final Duration batchWait;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final Object batches = new Object();
    private int batchesInHand;

    @Inject
    Stopping(StopConfig config) {
        this(config.batchWait());
    }

    /** For unit tests: the stop waits up to {@code batchWait} for batches in hand. */
    public Stopping(Duration batchWait) {
        this.batchWait = batchWait;
    }

    /** For unit tests: the default wait, 5 s. */
    public Stopping() {
        this(Duration.ofSeconds(5));
    }

    /** Before the service's own observers of the stop: what they interrupt sees that the service is stopping. */
    void onStop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        begin();
    }

    /** After the service's own observers of the stop (which may end a batch's wait), before the datasources close. */
    void awaitBatches(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER) ShutdownEvent event) {
        int left = awaitBatchesInHand(batchWait);
        if (left > 0) {
            LOG.infof("%d consumer batch(es) still in hand after %d ms of the stop (cryptopay.stop.batch-wait); not"
                    + " acknowledged, so the next start reads them again", left, batchWait.toMillis());
        }
    }

    /** The service begins to stop (Quarkus' {@link ShutdownEvent}; a unit test calls it directly). */
    public void begin() {
        stopping.countDown();
    }

    /**
     * A consumer takes a batch in hand: true, and the stop waits for {@link #batchDone} (up to the batch wait);
     * or false once the service is stopping, when the batch must not be started.
     */
    public boolean takeBatch() {
        synchronized (batches) {
            // Checked under the lock the stop's wait reads the count with: a batch taken before the stop began is
            // counted before the wait reads it, and none is taken after.
            if (now()) {
                return false;
            }
            batchesInHand++;
            return true;
        }
    }

    /** The batch taken with {@link #takeBatch} is settled (acknowledged, left or rejected). */
    public void batchDone() {
        synchronized (batches) {
            batchesInHand--;
            batches.notifyAll();
        }
    }

    /**
     * Waits until no consumer has a batch in hand or {@code max} has passed.
     *
     * @return the batches still in hand
     */
    public int awaitBatchesInHand(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (batches) {
            while (batchesInHand > 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    break;
                }
                try {
                    batches.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return batchesInHand;
        }
    }

    /** True from the moment the service begins to stop. */
    public boolean now() {
        return stopping.getCount() == 0;
    }

    /**
     * Waits until the service begins to stop or {@code millis} have passed, whichever comes first.
     *
     * @return true if the service is stopping
     */
    public boolean await(long millis) throws InterruptedException {
        return stopping.await(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Logs a background run that failed and is retried later: at WARN while the service runs, at DEBUG once it is
     * stopping (see above).
     */
    public void paused(Logger log, String format, Object... params) {
        logPaused(log, now(), format, params);
    }

    /** The same, for a job that knows by itself whether its service is stopping. */
    public static void logPaused(Logger log, boolean stopping, String format, Object... params) {
        log.logf(stopping ? Logger.Level.DEBUG : Logger.Level.WARN, format, params);
    }
}
