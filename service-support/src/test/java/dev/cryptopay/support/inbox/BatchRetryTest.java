package dev.cryptopay.support.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A consumer's batch is retried while storing fails, and given up (unacknowledged) once the service stops. */
class BatchRetryTest {

    @Test
    void retriesAFailingBatchUntilItIsStored() throws Exception {
        BatchRetry retry = new BatchRetry(Duration.ofMillis(1), Duration.ofMillis(4));
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
        BatchRetry retry = new BatchRetry(Duration.ofMinutes(1), Duration.ofMinutes(1));
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

        retry.stop();
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
        BatchRetry retry = new BatchRetry(Duration.ofMinutes(1), Duration.ofMinutes(1));
        retry.stop();
        AtomicInteger attempts = new AtomicInteger();
        assertThrows(BatchRetry.LeftForNextStart.class, () -> retry.run(() -> "storing 1 event", () -> {
            attempts.incrementAndGet();
            throw new SQLException("the database is shutting down");
        }));
        assertEquals(1, attempts.get());
        retry.run(() -> "storing 1 event", attempts::incrementAndGet);
        assertEquals(2, attempts.get(), "a batch stored while stopping is acknowledged as usual");
    }
}
