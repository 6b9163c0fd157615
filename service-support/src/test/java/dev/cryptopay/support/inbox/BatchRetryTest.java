package dev.cryptopay.support.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.lifecycle.Stopping;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/**
 * A consumer's batch is retried while storing fails, and given up (unacknowledged) once the service stops; its message
 * is acknowledged once stored, left unsettled when given up at a stop, and rejected for any other failure.
 */
class BatchRetryTest {

    @Test
    void retriesAFailingBatchUntilItIsStored() throws Exception {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMillis(1), Duration.ofMillis(4));
        AtomicInteger attempts = new AtomicInteger();
        retry.run(() -> "storing 3 events", () -> {
            if (attempts.incrementAndGet() < 4) {
                throw new SQLException("connection refused");
            }
        });
        assertEquals(4, attempts.get());
    }

    @Test
    void aStopEndsTheWaitAndFailsTheBatchWithoutAnotherAttempt() throws Exception {
        // A wait of a minute: only the stop can end it within the test's few seconds.
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMinutes(1), Duration.ofMinutes(1));
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<Void> consuming = CompletableFuture.runAsync(() -> {
            try {
                retry.run(() -> "storing 48 events from transactions-in", () -> {
                    attempts.incrementAndGet();
                    throw new IllegalStateException("EntityManagerFactory is closed");
                });
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (attempts.get() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, attempts.get(), "the first attempt ran and failed");

        stopping.begin();
        ExecutionException failed = assertThrows(ExecutionException.class, () -> consuming.get(5, TimeUnit.SECONDS));
        BatchRetry.LeftForNextStart stopped = assertInstanceOf(BatchRetry.LeftForNextStart.class, failed.getCause());
        assertTrue(stopped.getMessage().startsWith("storing 48 events from transactions-in failed while the service is"
                + " stopping"), stopped.getMessage());
        assertTrue(stopped.getMessage().endsWith("java.lang.IllegalStateException: EntityManagerFactory is closed"),
                stopped.getMessage());
        // The messaging layer logs it once a record and adds it to itself as suppressed: it must stay one line.
        stopped.addSuppressed(new IllegalStateException("the same failure, reported for the next record"));
        assertEquals(0, stopped.getSuppressed().length);
        assertEquals(0, stopped.getStackTrace().length);
        assertEquals(1, attempts.get(), "no attempt after the stop");
    }

    @Test
    void afterAStopAFailureIsNotRetriedButASuccessStillCounts() throws Exception {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMinutes(1), Duration.ofMinutes(1));
        stopping.begin();
        AtomicInteger attempts = new AtomicInteger();
        assertThrows(BatchRetry.LeftForNextStart.class, () -> retry.run(() -> "storing 1 event", () -> {
            attempts.incrementAndGet();
            throw new SQLException("the database is shutting down");
        }));
        assertEquals(1, attempts.get());
        retry.run(() -> "storing 1 event", attempts::incrementAndGet);
        assertEquals(2, attempts.get(), "a batch stored while stopping is acknowledged as usual");
    }

    @Test
    void aStoredBatchIsAcknowledged() throws Exception {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMillis(1), Duration.ofMillis(4));
        Settled batch = new Settled();
        AtomicInteger attempts = new AtomicInteger();
        CompletionStage<Void> settled = retry.settle(batch.message, () -> retry.run(() -> "storing 2 events", () -> {
            if (attempts.incrementAndGet() < 2) {
                throw new SQLException("connection refused");
            }
        }));
        assertNull(settled.toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertEquals(2, attempts.get(), "stored at the second attempt");
        assertEquals(1, batch.acks.get());
        assertNull(batch.nacked.get());
    }

    @Test
    void aBatchLeftAtAStopIsNeitherAcknowledgedNorRejected() throws Exception {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMinutes(1), Duration.ofMinutes(1));
        Settled batch = new Settled();
        CompletionStage<Void> settled = retry.settle(batch.message, () -> retry.run(() -> "storing 7 events", () -> {
            stopping.begin(); // the stop begins while the batch is in hand
            throw new IllegalStateException("EntityManagerFactory is closed");
        }));
        // Completed normally: the messaging layer neither logs a failure nor fails the channel.
        assertNull(settled.toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertEquals(0, batch.acks.get(), "not acknowledged: its offsets are not committed");
        assertNull(batch.nacked.get(), "not rejected: the failure strategy does not apply");
    }

    @Test
    void aBatchInterruptedAtAStopIsLeftForTheNextStart() throws Exception {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMinutes(1), Duration.ofMinutes(1));
        Settled batch = new Settled();
        // As a consumer applying partitions on a pool of its own reports a pool thread interrupted by its stop.
        CompletionStage<Void> settled = retry.settle(batch.message, () -> {
            stopping.begin();
            throw new IllegalStateException("applying a partition's records failed", new InterruptedException());
        });
        assertNull(settled.toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertEquals(0, batch.acks.get());
        assertNull(batch.nacked.get());
        assertTrue(!Thread.currentThread().isInterrupted(), "given up at a stop: no interrupt is passed on");
    }

    @Test
    void aBatchReachingTheConsumerOnceTheStopBeganIsNotStarted() throws Exception {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMinutes(1), Duration.ofMinutes(1));
        stopping.begin();
        Settled batch = new Settled();
        AtomicInteger attempts = new AtomicInteger();
        CompletionStage<Void> settled = retry.settle(batch.message, () -> "storing 3 events",
                attempts::incrementAndGet);
        assertNull(settled.toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertEquals(0, attempts.get(), "not started: the stop does not wait for it");
        assertEquals(0, batch.acks.get(), "not acknowledged: the next start reads it again");
        assertNull(batch.nacked.get());
        assertEquals(0, stopping.awaitBatchesInHand(Duration.ZERO), "nothing left in hand");
    }

    @Test
    void theStopWaitsForTheBatchInHandUntilItIsSettled() throws Exception {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMinutes(1), Duration.ofMinutes(1));
        Settled batch = new Settled();
        AtomicInteger inHand = new AtomicInteger(-1);
        retry.settle(batch.message, () -> "storing 2 events", () -> {
            stopping.begin();
            inHand.set(stopping.awaitBatchesInHand(Duration.ZERO));
        });
        assertEquals(1, inHand.get(), "in hand while it is stored");
        assertEquals(1, batch.acks.get(), "stored after the stop began: acknowledged as usual");
        assertEquals(0, stopping.awaitBatchesInHand(Duration.ZERO), "settled: the stop's wait ends");
    }

    @Test
    void anyOtherFailureRejectsTheBatch() throws Exception {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMinutes(1), Duration.ofMinutes(1));
        Settled batch = new Settled();
        IllegalArgumentException bug = new IllegalArgumentException("not a CloudEvent");
        CompletionStage<Void> settled = retry.settle(batch.message, () -> {
            throw bug;
        });
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> settled.toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertSame(bug, failed.getCause(), "the stage the rejection returned");
        assertSame(bug, batch.nacked.get());
        assertEquals(0, batch.acks.get());
    }

    @Test
    void anInterruptWhileRunningRejectsTheBatchAndKeepsTheFlag() {
        Stopping stopping = new Stopping();
        BatchRetry retry = new BatchRetry(stopping, Duration.ofMinutes(1), Duration.ofMinutes(1));
        Settled batch = new Settled();
        retry.settle(batch.message, () -> {
            throw new InterruptedException();
        });
        assertTrue(Thread.interrupted(), "the interrupt is kept for the messaging layer's thread (and cleared here)");
        assertInstanceOf(InterruptedException.class, batch.nacked.get(), "not running a stop: rejected");
        assertEquals(0, batch.acks.get());
    }

    /** A batch message that records how it was settled; a rejection answers with a failed stage, as fail-stop does. */
    private static final class Settled {
        final AtomicInteger acks = new AtomicInteger();
        final AtomicReference<Throwable> nacked = new AtomicReference<>();
        final Message<List<String>> message = Message.of(List.of("{}"), () -> {
            acks.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }, failure -> {
            nacked.set(failure);
            return CompletableFuture.failedFuture(failure);
        });
    }
}
