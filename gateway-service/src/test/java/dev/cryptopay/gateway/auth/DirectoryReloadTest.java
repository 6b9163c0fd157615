package dev.cryptopay.gateway.auth;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The directory's caches keep their upkeep on the calling thread and send only the re-reads of entries in use to the
 * refresher (docs/performance.md, twenty-third step): a first read happens where it is asked for, a re-read on the
 * refresher, and the reader meanwhile gets the value it had.
 */
class DirectoryReloadTest {

    private final ExecutorService refresher = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-refresher"));

    @AfterEach
    void stop() {
        refresher.shutdownNow();
    }

    private static String readHere(String key) {
        return key + "@" + Thread.currentThread().getName();
    }

    @Test
    void aReadRunsOnTheCallerAndAReReadOnTheRefresher() throws Exception {
        var loader = Directory.reloadingOn(refresher, DirectoryReloadTest::readHere);
        assertEquals("k@" + Thread.currentThread().getName(), loader.load("k"));
        assertEquals("k@test-refresher", loader.asyncReload("k", "old", Runnable::run).get(5, SECONDS));
    }

    @Test
    void anEntryInUseIsReReadOnTheRefresherWhileTheReaderGetsTheValueItHad() throws Exception {
        AtomicLong nanos = new AtomicLong();
        CountDownLatch readerServed = new CountDownLatch(1);
        CountDownLatch reRead = new CountDownLatch(1);
        LoadingCache<String, String> cache = Caffeine.newBuilder().ticker(nanos::get)
                .expireAfterWrite(Duration.ofSeconds(1)).refreshAfterWrite(Duration.ofMillis(500))
                .executor(Runnable::run)
                .build(Directory.reloadingOn(refresher, key -> {
                    String value = readHere(key);
                    if (value.endsWith("@test-refresher")) {
                        awaitQuietly(readerServed); // the re-read ends only after the reader was answered
                        reRead.countDown();
                    }
                    return value;
                }));
        String caller = Thread.currentThread().getName();
        assertEquals("k@" + caller, cache.get("k"));

        nanos.addAndGet(Duration.ofMillis(600).toNanos()); // past the refresh point, within the lifetime
        assertEquals("k@" + caller, cache.getIfPresent("k"), "the reader gets the value it had, without waiting");
        readerServed.countDown();
        assertTrue(reRead.await(5, SECONDS), "the entry was re-read on the refresher");
        long deadline = System.nanoTime() + SECONDS.toNanos(5);
        while (!"k@test-refresher".equals(cache.getIfPresent("k")) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals("k@test-refresher", cache.getIfPresent("k"), "the re-read value replaced the old one");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(5, SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
