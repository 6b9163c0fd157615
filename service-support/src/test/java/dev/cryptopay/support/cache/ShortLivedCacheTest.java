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
}
