package dev.cryptopay.support.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The idle back-off of the watcher and expiry (docs/decisions.md §74). */
class IdleBackoffTest {

    @Test
    void idleRunsDoubleTheDelayUpToTheCapAndAnOpenRunResetsIt() {
        IdleBackoff backoff = new IdleBackoff(Duration.ofSeconds(1), Duration.ofSeconds(5));
        assertEquals(Duration.ofSeconds(1), backoff.delay());
        backoff.ran(true, backoff.starting());
        assertEquals(Duration.ofSeconds(2), backoff.delay());
        backoff.ran(true, backoff.starting());
        assertEquals(Duration.ofSeconds(4), backoff.delay());
        backoff.ran(true, backoff.starting());
        assertEquals(Duration.ofSeconds(5), backoff.delay());
        backoff.ran(true, backoff.starting());
        assertEquals(Duration.ofSeconds(5), backoff.delay());
        backoff.ran(false, backoff.starting());
        assertEquals(Duration.ofSeconds(1), backoff.delay());
    }

    @Test
    void aRunIsNotDueBeforeItsDelayAndAWakeMakesTheNextTickRun() throws InterruptedException {
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(100), Duration.ofSeconds(60));
        for (int i = 0; i < 6; i++) {
            backoff.ran(true, backoff.starting());
        }
        assertEquals(Duration.ofMillis(6400), backoff.delay());
        Thread.sleep(150);
        assertFalse(backoff.due(), "a backed-off job waits for its delay");
        assertTrue(backoff.wake(), "a wake of a backed-off job asks for a run now");
        assertEquals(Duration.ofMillis(100), backoff.delay());
        assertTrue(backoff.due(), "after a wake the next tick runs the job");
        assertFalse(backoff.wake(), "a job already at the interval runs at its next tick, not once per wake");
    }

    @Test
    void theDelayCountsFromTheStartOfTheLastRunSoASlowRunDoesNotSkipATick() throws InterruptedException {
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(300), Duration.ofSeconds(60));
        Thread.sleep(300);
        assertTrue(backoff.due());
        long started = backoff.starting();
        Thread.sleep(200); // a pass that takes two thirds of the interval and finds something open
        backoff.ran(false, started);
        Thread.sleep(120); // the next tick: 320 ms after that run started, 120 ms after it ended
        assertTrue(backoff.due(), "a job at its interval runs at every tick, however long its runs take");
    }

    @Test
    void aWakeDuringARunKeepsThatRunFromBackingOff() {
        IdleBackoff backoff = new IdleBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
        backoff.ran(true, backoff.starting());
        long started = backoff.starting();
        backoff.wake(); // a creation committed after the run looked and found nothing open
        backoff.ran(true, started);
        assertEquals(Duration.ofSeconds(1), backoff.delay());
    }

    @Test
    void runIfDueRunsOnlyWhenDueAndBacksOffOnAnIdleAnswer() throws InterruptedException {
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(100), Duration.ofSeconds(60));
        AtomicInteger runs = new AtomicInteger();
        Thread.sleep(100);
        assertTrue(backoff.runIfDue(() -> runs.incrementAndGet() > 0), "due once the interval has passed");
        assertEquals(Duration.ofMillis(200), backoff.delay(), "it found nothing open: twice the interval");
        assertFalse(backoff.runIfDue(() -> runs.incrementAndGet() > 0), "not due again before its delay");
        assertEquals(1, runs.get());

        Thread.sleep(200);
        assertThrows(IllegalStateException.class, () -> backoff.runIfDue(() -> {
            throw new IllegalStateException("database down");
        }));
        assertEquals(Duration.ofMillis(100), backoff.delay(), "a failed run is not idle");
        Thread.sleep(100);
        assertTrue(backoff.runIfDue(() -> false));
        assertEquals(Duration.ofMillis(100), backoff.delay(), "a run that found something open stays at the interval");
    }
}
