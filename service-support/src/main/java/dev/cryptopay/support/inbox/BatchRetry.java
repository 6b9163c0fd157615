package dev.cryptopay.support.inbox;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * How a consumer stores a batch of events (docs/decisions.md §80): while storing fails (the database is down) the
 * batch is tried again, waiting 250 ms and doubling up to 5 s, so the topic's partitions wait instead of skipping
 * events. Once the service is stopping ({@link #stop}, from a {@code ShutdownEvent} observer) a failing batch is not
 * tried again: it fails, unacknowledged, so its offsets are not committed and the next start reads it again (the
 * inbox drops whatever of it was stored). Without that, a batch that failed because the stopping service had already
 * closed its database access was retried until the process was killed.
 */
public final class BatchRetry {

    /** One attempt at storing the batch. */
    @FunctionalInterface
    public interface Attempt {
        void run() throws Exception;
    }

    private static final Logger LOG = Logger.getLogger(BatchRetry.class);

    private final long firstWaitMillis;
    private final long maxWaitMillis;
    private final CountDownLatch stopping = new CountDownLatch(1);

    public BatchRetry() {
        this(Duration.ofMillis(250), Duration.ofSeconds(5));
    }

    public BatchRetry(Duration firstWait, Duration maxWait) {
        this.firstWaitMillis = Math.max(1, firstWait.toMillis());
        this.maxWaitMillis = Math.max(firstWaitMillis, maxWait.toMillis());
    }

    /** The service is stopping: no more attempts after a failure, and a wait under way ends now. */
    public void stop() {
        stopping.countDown();
    }

    /**
     * Runs the attempt until it succeeds.
     *
     * @param what names the batch in the log, e.g. "storing 12 events from transactions-in" (built only on failure)
     * @throws LeftForNextStart when an attempt failed after {@link #stop}: the batch is left for the next start
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    public void run(Supplier<String> what, Attempt attempt) throws InterruptedException {
        long wait = firstWaitMillis;
        while (true) {
            try {
                attempt.run();
                return;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (stopping.getCount() == 0) {
                    throw stopped(what, e);
                }
                LOG.warnf("%s failed, retrying in %d ms: %s", what.get(), wait, e.getMessage());
                if (stopping.await(wait, TimeUnit.MILLISECONDS)) {
                    throw stopped(what, e);
                }
                wait = Math.min(maxWaitMillis, wait * 2);
            }
        }
    }

    private static LeftForNextStart stopped(Supplier<String> what, Exception cause) {
        return new LeftForNextStart(what.get() + " failed while the service is stopping; not acknowledged, so the next"
                + " start reads it again: " + cause);
    }

    /**
     * The batch given up at a stop. Without a stack trace, a cause or suppressed exceptions: the messaging layer logs
     * the failure once for each record of the batch and adds it to itself as suppressed, which for a full exception
     * made thousands of log lines of one stop; the message says all there is (the cause's class and message).
     */
    public static final class LeftForNextStart extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LeftForNextStart(String message) {
            super(message, null, false, false);
        }
    }
}
