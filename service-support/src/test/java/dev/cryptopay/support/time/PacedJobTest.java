package dev.cryptopay.support.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The thread and timing of the background jobs that back off while idle (docs/decisions.md §105): timed runs at the
 * backoff's pace, early runs on request, merged requests, and nothing after a stop.
 */
class PacedJobTest {

    private PacedJob job;

    @AfterEach
    void stop() {
        if (job != null) {
            job.stop();
        }
    }

    @Test
    void timedRunsKeepTheIntervalWhileBusyAndDoubleUpToTheCapWhileIdle() {
        AtomicBoolean idle = new AtomicBoolean(false);
        List<Long> runs = new CopyOnWriteArrayList<>();
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(40), Duration.ofMillis(320));
        job = new PacedJob("test-paced", backoff, timed -> {
            runs.add(System.nanoTime());
            return idle.get();
        });
        job.start(Duration.ZERO);
        await(() -> runs.size() >= 6, Duration.ofSeconds(5), "six runs at the interval");
        assertEquals(Duration.ofMillis(40), job.delay(), "runs that found work keep the interval");

        idle.set(true);
        await(() -> job.delay().equals(Duration.ofMillis(320)), Duration.ofSeconds(5), "the delay reaches the cap");
        int atCap = runs.size();
        sleep(Duration.ofMillis(1000));
        int more = runs.size() - atCap;
        // At the cap, one run per 320 ms: three in a second (four if one was about to start, fewer on a machine too
        // busy to run it on time); at the interval it would be 25.
        assertTrue(more >= 1 && more <= 4, more + " runs in a second at a delay of 320 ms");
        long last = runs.get(runs.size() - 1);
        long before = runs.get(runs.size() - 2);
        long gap = TimeUnit.NANOSECONDS.toMillis(last - before);
        assertTrue(gap >= 300, "runs at the cap are 320 ms apart, these " + gap + " ms");
    }

    @Test
    void anIdleRunThatKnowsWhenItsWorkFallsDueIsFollowedThenNotAtTheDoublingDelay() {
        List<Long> runs = new CopyOnWriteArrayList<>();
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(50), Duration.ofSeconds(30));
        PacedJob[] self = new PacedJob[1];
        job = new PacedJob("test-paced", backoff, timed -> {
            runs.add(System.nanoTime());
            self[0].dueIn(Duration.ofMillis(400)); // the earliest open item falls due in 400 ms (§126)
            return true;
        });
        self[0] = job;
        job.start(Duration.ZERO);
        await(() -> runs.size() >= 3, Duration.ofSeconds(5), "three runs, each when its work falls due");
        for (int i = 1; i < runs.size(); i++) {
            long gap = TimeUnit.NANOSECONDS.toMillis(runs.get(i) - runs.get(i - 1));
            // Not the interval (50 ms), nor the doubling delay (100, 200, 400, 800 ms...): 400 ms each time.
            assertTrue(gap >= 390 && gap < 800, "run " + i + " came " + gap + " ms after the one before, not 400");
        }
        assertEquals(400, job.delay().toMillis(), 10, "the delay is the time until the work falls due");
    }

    @Test
    void aWakeBringsABackedOffJobBackAtOnceWhenItsLastRunIsOlderThanTheInterval() {
        AtomicInteger runs = new AtomicInteger();
        job = idleJobBackedOffToTheCap(Duration.ofMillis(50), runs);
        job.start(Duration.ofMillis(100));
        await(() -> runs.get() == 1, Duration.ofSeconds(5), "the first timed run");
        sleep(Duration.ofMillis(300));
        assertEquals(1, runs.get(), "the next timed run is 30 s away");

        assertTrue(job.wake(), "the job was backing off");
        await(() -> runs.get() >= 2, Duration.ofSeconds(2), "a run right after the wake, not 30 s later");
        // It finds nothing again, so the job backs off anew from the interval: 50, 100, 200 ms...
        await(() -> runs.get() >= 4, Duration.ofSeconds(2), "the runs after it, at the doubling delay");
    }

    @Test
    void runSoonRunsAtOnceAndRequestsMadeMeanwhileMergeIntoOneRun() throws InterruptedException {
        IdleBackoff backoff = new IdleBackoff(Duration.ofSeconds(30), Duration.ofSeconds(30));
        CountDownLatch inFirstRun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Boolean> runs = new CopyOnWriteArrayList<>();
        job = new PacedJob("test-paced", backoff, timed -> {
            runs.add(timed);
            if (runs.size() == 1) {
                inFirstRun.countDown();
                try {
                    release.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return true;
        });
        job.start(Duration.ofSeconds(30));
        job.runSoon();
        assertTrue(inFirstRun.await(2, TimeUnit.SECONDS), "runSoon runs long before the first timed run");
        for (int i = 0; i < 5; i++) {
            job.runSoon(); // while the first run is under way: one more run after it, not five
        }
        release.countDown();
        await(() -> runs.size() == 2, Duration.ofSeconds(2), "the merged run");
        sleep(Duration.ofMillis(300));
        assertEquals(List.of(false, false), runs, "two early runs, no timed one (30 s away)");
    }

    @Test
    void aTimedRunThatBeginsAfterAnEarlyRequestServesItInsteadOfRunningTwice() {
        AtomicInteger runs = new AtomicInteger();
        job = idleJobBackedOffToTheCap(Duration.ofSeconds(1), runs);
        job.start(Duration.ofSeconds(30));
        sleep(Duration.ofMillis(1100)); // the last run began more than the interval ago

        job.runSoon(Duration.ofMillis(300)); // an early run asked for, lingering 300 ms
        assertTrue(job.wake(), "the job was backing off"); // its timed run: now, before the lingered one
        await(() -> runs.get() == 1, Duration.ofSeconds(2), "the timed run right after the wake");
        sleep(Duration.ofMillis(700)); // past the linger; the next timed run is 2 s after the first
        assertEquals(1, runs.get(), "the timed run began after the request and served it: no second run");
    }

    @Test
    void runSoonAfterALingerWaitsForItAndAFailingRunKeepsTheInterval() {
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(100), Duration.ofSeconds(30));
        List<Long> runs = new CopyOnWriteArrayList<>();
        job = new PacedJob("test-paced", backoff, timed -> {
            runs.add(System.nanoTime());
            throw new IllegalStateException("database down");
        });
        long asked = System.nanoTime();
        job.runSoon(Duration.ofMillis(200));
        await(() -> runs.size() == 1, Duration.ofSeconds(2), "the lingered run");
        long waited = TimeUnit.NANOSECONDS.toMillis(runs.get(0) - asked);
        assertTrue(waited >= 190, "ran " + waited + " ms after the request, before its 200 ms linger");

        job.start(Duration.ZERO);
        await(() -> runs.size() >= 5, Duration.ofSeconds(3), "timed runs go on after failures");
        assertEquals(Duration.ofMillis(100), job.delay(), "a failed run is not idle: no back-off");
    }

    @Test
    void nothingRunsAfterStop() {
        IdleBackoff backoff = new IdleBackoff(Duration.ofMillis(20), Duration.ofMillis(20));
        AtomicInteger runs = new AtomicInteger();
        job = new PacedJob("test-paced", backoff, timed -> runs.incrementAndGet() > 0); // idle: nothing found
        job.start(Duration.ZERO);
        await(() -> runs.get() >= 3, Duration.ofSeconds(2), "runs every 20 ms");
        job.stop();
        sleep(Duration.ofMillis(50)); // a run under way when stop was called may still end
        int after = runs.get();
        job.runSoon();
        job.wake();
        sleep(Duration.ofMillis(200));
        assertEquals(after, runs.get(), "no timed or early run after stop");
    }

    @Test
    void stopWaitsForTheRunUnderWay() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        job = new PacedJob("test-paced", new IdleBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)), timed -> {
            running.countDown();
            sleep(Duration.ofMillis(300)); // a batch being committed
            finished.set(true);
            return false;
        });
        job.start(Duration.ZERO);
        assertTrue(running.await(2, TimeUnit.SECONDS), "the run began");

        job.stop();

        assertTrue(finished.get(), "stop returned only once the run under way had finished");
    }

    /** A job whose runs find nothing to do (counted in {@code runs}), its backoff already at the 30 s cap. */
    private static PacedJob idleJobBackedOffToTheCap(Duration interval, AtomicInteger runs) {
        IdleBackoff backoff = new IdleBackoff(interval, Duration.ofSeconds(30));
        while (!backoff.delay().equals(Duration.ofSeconds(30))) {
            backoff.ran(true, backoff.starting());
        }
        return new PacedJob("test-paced", backoff, timed -> runs.incrementAndGet() > 0); // idle: nothing found
    }

    private static void await(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within " + timeout + ": " + what);
            sleep(Duration.ofMillis(5));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
