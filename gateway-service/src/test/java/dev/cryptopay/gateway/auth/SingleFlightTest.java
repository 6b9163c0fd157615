package dev.cryptopay.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The directory's one-lookup-per-key (docs/decisions.md §89). */
class SingleFlightTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(20);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** 20 callers of one key while its call runs: one call, every caller gets its result. */
    private List<Future<String>> burst(SingleFlight<String, String> flight, String key, AtomicInteger calls,
            CountDownLatch release, RuntimeException failure) throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        List<Future<String>> answers = new ArrayList<>();
        answers.add(pool.submit(() -> flight.run(key, () -> {
            calls.incrementAndGet();
            entered.countDown();
            await(release);
            if (failure != null) {
                throw failure;
            }
            return "answer-" + calls.get();
        })));
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        for (int i = 1; i < 20; i++) {
            answers.add(pool.submit(() -> flight.run(key, () -> {
                calls.incrementAndGet();
                return "own call";
            })));
        }
        return answers;
    }

    @Test
    void callersArrivingWhileTheCallRunsShareItsResult() throws Exception {
        SingleFlight<String, String> flight = new SingleFlight<>();
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        List<Future<String>> answers = burst(flight, "key", calls, release, null);
        Thread.sleep(200); // the 19 others are waiting on the first call by now (or about to join it)
        release.countDown();
        for (Future<String> answer : answers) {
            assertEquals("answer-1", answer.get(10, TimeUnit.SECONDS));
        }
        assertEquals(1, calls.get());
        assertEquals(0, flight.running());

        // nothing is kept: the next caller calls again
        assertEquals("again", flight.run("key", () -> {
            calls.incrementAndGet();
            return "again";
        }));
        assertEquals(2, calls.get());
    }

    @Test
    void aFailureReachesEveryCallerThatSharedTheCall() throws Exception {
        SingleFlight<String, String> flight = new SingleFlight<>();
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        IllegalStateException failure = new IllegalStateException("database gone");
        List<Future<String>> answers = burst(flight, "key", calls, release, failure);
        Thread.sleep(200);
        release.countDown();
        for (Future<String> answer : answers) {
            ExecutionException thrown = assertThrows(ExecutionException.class,
                    () -> answer.get(10, TimeUnit.SECONDS));
            assertSame(failure, thrown.getCause());
        }
        assertEquals(1, calls.get());
        assertEquals(0, flight.running(), "a failed call is not kept either");
    }

    @Test
    void differentKeysDoNotWaitForEachOther() throws Exception {
        SingleFlight<String, String> flight = new SingleFlight<>();
        CountDownLatch release = new CountDownLatch(1);
        Future<String> slow = pool.submit(() -> flight.run("slow", () -> {
            await(release);
            return "slow";
        }));
        assertEquals("fast", pool.submit(() -> flight.run("fast", () -> "fast")).get(5, TimeUnit.SECONDS));
        release.countDown();
        assertEquals("slow", slow.get(10, TimeUnit.SECONDS));
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
