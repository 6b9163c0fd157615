package dev.cryptopay.support.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ShortLivedCacheTest {

    private static final long TTL_NANOS = 200_000_000L;
    private static final long MILLI = 1_000_000L;

    /** The cache's clock, moved by hand: no test depends on how fast this machine runs (or on a pause in it). */
    private final AtomicLong clock = new AtomicLong();

    private <K> ShortLivedCache<K, String> cache(int maxEntries) {
        return new ShortLivedCache<>(TTL_NANOS, maxEntries, clock::get);
    }

    /** Just enough of a transaction registry to run the synchronisations a test completes by hand. */
    private static final class Registry implements TransactionSynchronizationRegistry {
        final List<Synchronization> registered = new ArrayList<>();

        void complete() {
            registered.forEach(s -> s.afterCompletion(jakarta.transaction.Status.STATUS_COMMITTED));
            registered.clear();
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            registered.add(sync);
        }

        @Override
        public Object getTransactionKey() {
            return null;
        }

        @Override
        public void putResource(Object key, Object value) {
        }

        @Override
        public Object getResource(Object key) {
            return null;
        }

        @Override
        public int getTransactionStatus() {
            return jakarta.transaction.Status.STATUS_ACTIVE;
        }

        @Override
        public void setRollbackOnly() {
        }

        @Override
        public boolean getRollbackOnly() {
            return false;
        }
    }

    @Test
    void aValueIsReadOnceWithinItsTimeToLiveAndAgainAfterIt() {
        ShortLivedCache<String, String> cache = cache(100);
        AtomicInteger reads = new AtomicInteger();
        assertEquals("v1", cache.get("k", k -> "v" + reads.incrementAndGet()));
        assertEquals("v1", cache.get("k", k -> "v" + reads.incrementAndGet()));
        clock.addAndGet(TTL_NANOS - MILLI);
        assertEquals("v1", cache.get("k", k -> "v" + reads.incrementAndGet()), "still younger than its time to live");
        clock.addAndGet(MILLI);
        assertEquals("v2", cache.get("k", k -> "v" + reads.incrementAndGet()), "as old as its time to live");
        assertEquals("v2", cache.get("k", k -> "v" + reads.incrementAndGet()), "the new value is kept in turn");
        assertEquals(2, reads.get());
    }

    @Test
    void nullIsAnsweredButNeverKept() {
        ShortLivedCache<String, String> cache = cache(100);
        assertNull(cache.get("k", k -> null));
        assertEquals("found", cache.get("k", k -> "found"));
    }

    @Test
    void forgetDropsEverythingNowAndAgainWhenTheChangingTransactionEnds() {
        ShortLivedCache<String, String> cache = cache(100);
        Registry registry = new Registry();
        cache.get("k", k -> "old");
        cache.forget(registry);
        // a read between the change and its commit still sees the old row, and may keep it for now ...
        assertEquals("old", cache.get("k", k -> "old"));
        registry.complete();
        // ... but not past the commit
        assertEquals("new", cache.get("k", k -> "new"));
    }

    @Test
    void aReadThatOverlapsAChangeIsNotKept() {
        ShortLivedCache<String, String> cache = cache(100);
        Registry registry = new Registry();
        assertEquals("old", cache.get("k", k -> {
            cache.forget(registry); // the change starts while this read is under way
            registry.complete();
            return "old";
        }));
        assertEquals("new", cache.get("k", k -> "new"));
    }

    @Test
    void aFullCacheStartsOver() {
        ShortLivedCache<Integer, String> cache = cache(1);
        cache.get(1, k -> "a");
        cache.get(2, k -> "b");
        cache.get(3, k -> "c");
        assertEquals("a2", cache.get(1, k -> "a2"));
        assertEquals("c", cache.get(3, k -> "c2"));
    }

    /** The table's version as a test sets it, and how often the cache read it. */
    private final AtomicLong tableVersion = new AtomicLong(7);
    private final AtomicInteger versionReads = new AtomicInteger();

    private <K> ShortLivedCache<K, String> versioned() {
        ViewVersion version = new ViewVersion(TTL_NANOS, () -> {
            versionReads.incrementAndGet();
            return tableVersion.get();
        }, clock::get);
        return new ShortLivedCache<>(100, version);
    }

    /** The case of issue #14's 200 merchants: each asked for less often than the time to live. */
    @Test
    void withAVersionAValueAskedForRarelyIsReadOnceWhileTheTableStaysTheSame() {
        ShortLivedCache<String, String> cache = versioned();
        AtomicInteger loads = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            assertEquals("a", cache.get("k", k -> {
                loads.incrementAndGet();
                return "a";
            }));
            clock.addAndGet(3 * TTL_NANOS / 2);
        }
        assertEquals(1, loads.get(), "the value was read again though the table did not change");
        assertEquals(5, versionReads.get(), "the version is read once the last read is older than half the lifetime");
    }

    @Test
    void withAVersionTheVersionIsReadAtMostOnceAHalfLifetimeWhileValuesAreAskedFor() {
        ShortLivedCache<String, String> cache = versioned();
        for (int i = 0; i < 40; i++) { // 40 gets over two lifetimes
            cache.get("k" + (i % 3), k -> "v");
            clock.addAndGet(TTL_NANOS / 20);
        }
        assertEquals(4, versionReads.get());
    }

    @Test
    void withAVersionAChangeOfTheTableIsReadWithinTheLifetime() {
        ShortLivedCache<String, String> cache = versioned();
        assertEquals("old", cache.get("k", k -> "old"));
        tableVersion.incrementAndGet(); // another replica changed the table
        clock.addAndGet(TTL_NANOS / 4);
        assertEquals("old", cache.get("k", k -> "new"), "within half the lifetime the last read of the version stands");
        clock.addAndGet(TTL_NANOS / 4);
        assertEquals("new", cache.get("k", k -> "new"), "at half the lifetime the version is read again");
        assertEquals("new", cache.get("k", k -> "newer"), "and the value read then is kept under the new version");
    }

    @Test
    void withAVersionForgetStillDropsEverything() {
        ShortLivedCache<String, String> cache = versioned();
        Registry registry = new Registry();
        assertEquals("old", cache.get("k", k -> "old"));
        cache.forget(registry);
        assertEquals("new", cache.get("k", k -> "new"));
        registry.complete();
        assertEquals("newest", cache.get("k", k -> "newest"));
    }
}
