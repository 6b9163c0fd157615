package dev.cryptopay.support.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The idle back-off of the outbox relay, the watcher, expiry, billing retries and refund payouts (§70, §74). */
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
    void aRunIsNotDueBeforeItsDelayAndAWakeMakesItDueAfterTheInterval() throws InterruptedException {
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(100), Duration.ofSeconds(60));
        for (int i = 0; i < 6; i++) {
            backoff.ran(true, backoff.starting());
        }
        assertEquals(Duration.ofMillis(6400), backoff.delay());
        Thread.sleep(150);
        long left = backoff.nanosUntilDue();
        assertTrue(left > Duration.ofMillis(5000).toNanos() && left <= Duration.ofMillis(6250).toNanos(),
                "a backed-off job waits for its delay: " + left + " ns left");
        assertTrue(backoff.wake(), "a wake of a backed-off job asks for an earlier run");
        assertEquals(Duration.ofMillis(100), backoff.delay());
        assertEquals(0, backoff.nanosUntilDue(), "after a wake the job is due: its last run began 150 ms ago");
        assertFalse(backoff.wake(), "a job already at the interval keeps its pace, no run per wake");
    }

    @Test
    void theDelayCountsFromTheStartOfTheLastRunSoASlowRunKeepsThePace() throws InterruptedException {
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(300), Duration.ofSeconds(60));
        long started = backoff.starting();
        Thread.sleep(200); // a pass that takes two thirds of the interval and finds something open
        backoff.ran(false, started);
        long left = backoff.nanosUntilDue();
        assertTrue(left <= Duration.ofMillis(100).toNanos(),
                "due 300 ms after the run started, not after it ended: " + left + " ns left");
        Thread.sleep(120);
        assertEquals(0, backoff.nanosUntilDue());
    }

    @Test
    void anIdleRunWithWorkFallingDueSetsTheDelayToThenWithinTheIntervalAndTheCap() {
        IdleBackoff backoff = new IdleBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
        long started = backoff.starting();
        backoff.ran(true, started, System.nanoTime() + Duration.ofSeconds(10).toNanos());
        assertEquals(10, backoff.delay().toSeconds(), "due in 10 s: the next run then, not at the doubled 2 s");
        long left = backoff.nanosUntilDue();
        assertTrue(left > Duration.ofMillis(9900).toNanos() && left <= Duration.ofMillis(10100).toNanos(),
                "the run is set for when the work falls due: " + left + " ns left");

        backoff.ran(true, backoff.starting(), System.nanoTime() + Duration.ofMinutes(15).toNanos());
        assertEquals(Duration.ofSeconds(30), backoff.delay(), "due in 15 minutes: the cap");
        backoff.ran(true, backoff.starting(), System.nanoTime() + Duration.ofMillis(200).toNanos());
        assertEquals(Duration.ofSeconds(1), backoff.delay(), "due sooner than the interval: the interval");
        backoff.ran(true, backoff.starting(), System.nanoTime() - Duration.ofSeconds(5).toNanos());
        assertEquals(Duration.ofSeconds(1), backoff.delay(), "already due (funds still confirming): the interval");

        backoff.ran(true, backoff.starting(), System.nanoTime() + Duration.ofSeconds(10).toNanos());
        backoff.ran(true, backoff.starting(), IdleBackoff.NOTHING_DUE);
        assertEquals(20, backoff.delay().toSeconds(), "nothing open any more: doubling from there, as before");

        long during = backoff.starting();
        backoff.wake(); // opened while the run looked
        backoff.ran(true, during, System.nanoTime() + Duration.ofSeconds(10).toNanos());
        assertEquals(Duration.ofSeconds(1), backoff.delay(), "a wake during the run keeps the interval");
        backoff.ran(false, backoff.starting(), System.nanoTime() + Duration.ofSeconds(10).toNanos());
        assertEquals(Duration.ofSeconds(1), backoff.delay(), "a run that found work keeps the interval");
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
}
