package dev.cryptopay.support.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.runtime.ShutdownEvent;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A background run's failure is a WARN while the service runs and DEBUG once it stops (docs/decisions.md §103); the
 * stop waits for consumers' batches in hand and no batch starts once it began (§119).
 */
class StoppingTest {

    /** Keeps what was logged, as "LEVEL message". */
    static final class Captured extends Logger {
        final List<String> lines = new ArrayList<>();

        Captured() {
            super("captured");
        }

        @Override
        public boolean isEnabled(Level level) {
            return true;
        }

        @Override
        protected void doLog(Level level, String loggerClassName, Object message, Object[] parameters,
                Throwable thrown) {
            lines.add(level + " " + message);
        }

        @Override
        protected void doLogf(Level level, String loggerClassName, String format, Object[] parameters,
                Throwable thrown) {
            lines.add(level + " " + String.format(format, parameters));
        }
    }

    @Test
    void aFailedRunIsAWarningUntilTheServiceStops() {
        Stopping stopping = new Stopping();
        Captured log = new Captured();

        assertFalse(stopping.now());
        stopping.paused(log, "Expiry paused until the next run: %s", "Connection refused");
        stopping.onStop(new ShutdownEvent());
        assertTrue(stopping.now());
        stopping.paused(log, "Expiry paused until the next run: %s", "EntityManagerFactory is closed");

        assertEquals(List.of("WARN Expiry paused until the next run: Connection refused",
                "DEBUG Expiry paused until the next run: EntityManagerFactory is closed"), log.lines);
    }

    @Test
    void aJobWithItsOwnStopFlagLogsTheSameWay() {
        Captured log = new Captured();

        Stopping.logPaused(log, false, "outbox relay paused, will retry: %s", "Connection refused");
        Stopping.logPaused(log, true, "outbox relay paused, will retry: %s", "EntityManagerFactory is closed");

        assertEquals(List.of("WARN outbox relay paused, will retry: Connection refused",
                "DEBUG outbox relay paused, will retry: EntityManagerFactory is closed"), log.lines);
    }

    @Test
    void theStopWaitsForABatchInHandAndStartsNoOther() throws Exception {
        Stopping stopping = new Stopping();
        assertTrue(stopping.takeBatch(), "a batch starts while the service runs");
        stopping.begin();
        assertFalse(stopping.takeBatch(), "none starts once the service is stopping");

        AtomicBoolean stored = new AtomicBoolean();
        Thread consumer = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            stored.set(true);
            stopping.batchDone();
        });
        assertEquals(0, stopping.awaitBatchesInHand(Duration.ofSeconds(30)), "no batch left in hand");
        assertTrue(stored.get(), "the wait ended when the batch in hand was done, not before");
        consumer.join();
    }

    @Test
    void aBatchThatOutlastsTheWaitIsReportedStillInHand() {
        Stopping stopping = new Stopping();
        assertTrue(stopping.takeBatch());
        assertTrue(stopping.takeBatch());
        stopping.batchDone();
        stopping.begin();

        assertEquals(1, stopping.awaitBatchesInHand(Duration.ofMillis(50)));
        stopping.batchDone();
        assertEquals(0, stopping.awaitBatchesInHand(Duration.ofMillis(50)));
    }

    @Test
    void theStopWaitsAsLongAsConfiguredForABatchThatDoesNotEnd() {
        Stopping stopping = new Stopping(Duration.ofMillis(300));
        assertTrue(stopping.takeBatch());
        stopping.onStop(new ShutdownEvent());

        long started = System.nanoTime();
        stopping.awaitBatches(new ShutdownEvent());
        long waitedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();

        // The wait counts whole milliseconds, so it may end up to one early.
        assertTrue(waitedMillis >= 298, "the stop waited the configured 300 ms, not less: " + waitedMillis);
        assertTrue(waitedMillis < 5_000, "nor the default 5 s: " + waitedMillis);
    }
}
