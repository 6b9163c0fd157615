package dev.cryptopay.support.cache;

import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Values read from this replica's own database, kept for a short time so that a busy second of requests shares one
 * read (docs/decisions.md §68, §75). A change this replica makes or consumes calls {@link #forget}: every kept value
 * goes at once and again when the changing transaction ends, and a read that overlapped the change never keeps what
 * it read (a generation counter), so the next request here reads the committed change. Another replica's change
 * applies here within the time to live.
 *
 * <p>Built with a {@link ViewVersion} (the version of the table the values are read from), a value is kept as long as
 * the table's version, checked no longer than the time to live ago, is the one it was read at (docs/decisions.md
 * §106), instead of for the time to live after it was read: values asked for less often than that stay in memory
 * while the table does not change.
 *
 * <p>Hand-rolled rather than a cache library: a map, a timestamp or version per entry and a generation counter are the
 * whole of it, and the after-commit eviction needs the transaction registry anyway.
 */
public final class ShortLivedCache<K, V> {

    /** A value, and when it was read (without a version) or the table's version it was read at. */
    private record Kept<V>(V value, long stamp) {
    }

    private final long ttlNanos;
    private final int maxEntries;
    private final LongSupplier nanoClock;
    private final ViewVersion version;
    private final Map<K, Kept<V>> kept = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();

    /** {@code maxEntries}: past this many kept values the cache starts over (a bound on memory, not an LRU). */
    public ShortLivedCache(long ttlNanos, int maxEntries) {
        this(ttlNanos, maxEntries, System::nanoTime, null);
    }

    /** Values kept while {@code version} stays the one they were read at (see the class comment). */
    public ShortLivedCache(int maxEntries, ViewVersion version) {
        this(0, maxEntries, System::nanoTime, version);
    }

    /** With the clock the ages are read from ({@link System#nanoTime} in use), so a test can move time by hand. */
    ShortLivedCache(long ttlNanos, int maxEntries, LongSupplier nanoClock) {
        this(ttlNanos, maxEntries, nanoClock, null);
    }

    private ShortLivedCache(long ttlNanos, int maxEntries, LongSupplier nanoClock, ViewVersion version) {
        this.ttlNanos = ttlNanos;
        this.maxEntries = maxEntries;
        this.nanoClock = nanoClock;
        this.version = version;
    }

    /**
     * The value kept for {@code key} if it is younger than the time to live (or, with a version, was read at the
     * table's current version), else what {@code load} reads now; a
     * {@code null} from {@code load} is answered and never kept.
     */
    public V get(K key, Function<K, V> load) {
        // the version is read before the value, so a value kept under a version is at least that new
        long stamp = version != null ? version.current() : nanoClock.getAsLong();
        Kept<V> hit = kept.get(key);
        if (hit != null && (version != null ? hit.stamp() == stamp : stamp - hit.stamp() < ttlNanos)) {
            return hit.value();
        }
        long before = generation.get();
        V read = load.apply(key);
        if (read != null && generation.get() == before) {
            if (kept.size() > maxEntries) {
                kept.clear();
            }
            kept.put(key, new Kept<>(read, stamp));
        }
        return read;
    }

    /** Forgets every kept value now and when the caller's transaction ends (it is changing what they were read from). */
    public void forget(TransactionSynchronizationRegistry transactions) {
        clear();
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                clear();
            }
        });
    }

    private void clear() {
        generation.incrementAndGet();
        kept.clear();
    }
}
