package dev.cryptopay.support.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ShortLivedCacheTest {

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
    void aValueIsReadOnceWithinItsTimeToLiveAndAgainAfterIt() throws InterruptedException {
        ShortLivedCache<String, String> cache = new ShortLivedCache<>(200_000_000L, 100);
        AtomicInteger reads = new AtomicInteger();
        assertEquals("v1", cache.get("k", k -> "v" + reads.incrementAndGet()));
        assertEquals("v1", cache.get("k", k -> "v" + reads.incrementAndGet()));
        Thread.sleep(250);
        assertEquals("v2", cache.get("k", k -> "v" + reads.incrementAndGet()));
    }

    @Test
    void nullIsAnsweredButNeverKept() {
        ShortLivedCache<String, String> cache = new ShortLivedCache<>(60_000_000_000L, 100);
        assertNull(cache.get("k", k -> null));
        assertEquals("found", cache.get("k", k -> "found"));
    }

    @Test
    void forgetDropsEverythingNowAndAgainWhenTheChangingTransactionEnds() {
        ShortLivedCache<String, String> cache = new ShortLivedCache<>(60_000_000_000L, 100);
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
        ShortLivedCache<String, String> cache = new ShortLivedCache<>(60_000_000_000L, 100);
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
        ShortLivedCache<Integer, String> cache = new ShortLivedCache<>(60_000_000_000L, 1);
        cache.get(1, k -> "a");
        cache.get(2, k -> "b");
        cache.get(3, k -> "c");
        assertEquals("a2", cache.get(1, k -> "a2"));
        assertEquals("c", cache.get(3, k -> "c2"));
    }
}
