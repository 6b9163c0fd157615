package dev.cryptopay.support.inbox;

import dev.cryptopay.support.lifecycle.Stopping;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * How a consumer stores a batch of events (docs/decisions.md §80): while storing fails (the database is down) the
 * batch is tried again, waiting 250 ms and doubling up to 5 s, so the topic's partitions wait instead of skipping
 * events. Once the service is stopping ({@link Stopping}, at Quarkus' {@code ShutdownEvent}) a failing batch is not
 * tried again and a wait under way ends at once: the batch fails, unacknowledged, so its offsets are not committed and
 * the next start reads it again (the inbox drops whatever of it was stored). Without that, a batch that failed because
 * the stopping service had already closed its database access was retried until the process was killed.
 *
 * <p>A consumer takes its batch (or its one record) as a {@link Message} and hands it to {@link #settle}, which
 * acknowledges it once stored and, for a batch left for the next start, neither acknowledges nor rejects it
 * (docs/decisions.md §115, §116): a batch thrown out of the consumer method instead was logged by SmallRye as ERRORs,
 * the method's exception and one "nacked, fail-stop" line per event, at every stop under traffic, for a batch that
 * nothing was wrong with. Every consumer of the suite stores what it reads this way.
 */
public final class BatchRetry {

    /** One attempt at storing the batch. */
    @FunctionalInterface
    public interface Attempt {
        void run() throws Exception;
    }

    private static final Logger LOG = Logger.getLogger(BatchRetry.class);

    private final Stopping stopping;
    private final long firstWaitMillis;
    private final long maxWaitMillis;

    /** Waits 250 ms after the first failure, doubling up to 5 s, until {@code stopping} says the service stops. */
    public BatchRetry(Stopping stopping) {
        this(stopping, Duration.ofMillis(250), Duration.ofSeconds(5));
    }

    public BatchRetry(Stopping stopping, Duration firstWait, Duration maxWait) {
        this.stopping = stopping;
        this.firstWaitMillis = Math.max(1, firstWait.toMillis());
        this.maxWaitMillis = Math.max(firstWaitMillis, maxWait.toMillis());
    }

    /**
     * Runs the attempt until it succeeds.
     *
     * @param what names the batch in the log, e.g. "storing 12 events from transactions-in" (built only on failure)
     * @throws LeftForNextStart when an attempt failed once the service is stopping: the batch is left for the next
     *         start
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
                if (stopping.now()) {
                    throw stopped(what, e);
                }
                LOG.warnf("%s failed, retrying in %d ms: %s", what.get(), wait, e.getMessage());
                if (stopping.await(wait)) {
                    throw stopped(what, e);
                }
                wait = Math.min(maxWaitMillis, wait * 2);
            }
        }
    }

    /** {@link #settle(Message, Attempt)} of a consumer that stores its batch in one {@link #run}. */
    public CompletionStage<Void> settle(Message<?> batch, Supplier<String> what, Attempt store) {
        return settle(batch, () -> run(what, store));
    }

    /**
     * Consumes a batch and settles its message: acknowledged once {@code consume} returns (its offsets may then be
     * committed). The batch is in hand meanwhile ({@link Stopping#takeBatch}): a stop waits for it before the
     * datasources close, and once the service is stopping a batch is not started, neither acknowledged nor rejected
     * (docs/decisions.md §119). When the batch is left for the next start ({@link LeftForNextStart}, thrown by
     * {@link #run} inside {@code consume}, or an interrupt once the service is stopping) it is logged at INFO and the
     * message is neither acknowledged nor rejected: its offsets and every later one stay uncommitted, so the next start
     * reads it again, and the channel is not failed for a stop. Any other failure rejects the message (the channel's
     * failure strategy applies, as for an exception thrown out of the consumer method).
     *
     * @param consume stores the batch, through {@link #run}
     * @return what the consumer method returns to the messaging layer
     */
    public CompletionStage<Void> settle(Message<?> batch, Attempt consume) {
        if (!stopping.takeBatch()) {
            LOG.info("a batch reached the consumer while the service is stopping; not started and not acknowledged, so"
                    + " the next start reads it again");
            return CompletableFuture.completedFuture(null);
        }
        try {
            // Settled before the stop's wait hears of it: an acknowledgement is queued before the last offset commit.
            return consumeAndSettle(batch, consume);
        } finally {
            stopping.batchDone();
        }
    }

    private CompletionStage<Void> consumeAndSettle(Message<?> batch, Attempt consume) {
        try {
            consume.run();
        } catch (Exception e) {
            String left = leftForNextStart(e);
            if (left != null) {
                LOG.info(left);
                return CompletableFuture.completedFuture(null);
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return batch.nack(e);
        }
        return batch.ack();
    }

    /** What to log for a batch left for the next start that {@code failure} stands for; null for another failure. */
    private String leftForNextStart(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof LeftForNextStart) {
                return cause.getMessage();
            }
            // A consumer applying a batch on threads of its own stops them at the stop, interrupting what they wait on.
            if (cause instanceof InterruptedException && stopping.now()) {
                return "a batch was interrupted while the service is stopping; not acknowledged, so the next start"
                        + " reads it again";
            }
        }
        return null;
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
