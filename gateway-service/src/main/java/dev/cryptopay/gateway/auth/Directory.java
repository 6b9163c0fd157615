package dev.cryptopay.gateway.auth;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.client.MerchantLookupClient;
import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.support.cache.ViewVersion;
import dev.cryptopay.support.jdbc.AfterCommit;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.ws.rs.WebApplicationException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Keys and merchants as the gateway knows them: its own views, fed from the compacted Kafka topics, and on a
 * miss one synchronous lookup to merchant-service whose answer is kept (so a key works the moment it is
 * created); requests that miss the same key or merchant at the same time share that one lookup (§89). When
 * merchant-service is down, the views keep answering for everything already known.
 *
 * <p>In front of the views sits an in-memory cache. Every change to the views bumps their version
 * ({@code directory_version}, by a trigger, at the change's commit), and an entry carries the version it was read at.
 * An entry is answered from memory only while the version was read, no longer than the lifetime ago
 * ({@code gateway.directory-cache-ttl}, default one second), and found equal to the entry's: nothing is answered from
 * memory that was not known to be current within the lifetime, so a revocation consumed by another replica applies
 * here within it, and one consumed here applies at once (the consumers evict what they change and have the version
 * read again after their commit). While requests come, the version is read again in the background once half the
 * lifetime has passed (docs/decisions.md §82), so the entries in use stay in memory; when it has changed, every entry
 * is read again at its next use. One read of the version a second keeps every key and merchant in memory, however
 * rarely each is asked for (docs/decisions.md §106): with one entry's own lifetime, a merchant asked for less than
 * once a second was read from the view, on a worker, at nearly every request. The version as last read is a
 * {@link ViewVersion}, as in transaction-service's merchant view; the event loop only asks it what it knows and leaves
 * the reads to the directory-refresh thread.
 */
@ApplicationScoped
public class Directory {

    private static final Logger LOG = Logger.getLogger(Directory.class);

    /** An entry not asked for this long leaves memory (it would be answered only after a version check anyway). */
    static final Duration IDLE_EXPIRY = Duration.ofMinutes(10);
    /** What authentication needs of a key, detached from the persistence context. */
    public record KnownKey(UUID keyId, UUID accountId, String keyType, String role, UUID merchantUUID, int status) {
        static KnownKey of(StoredKey k) {
            return new KnownKey(k.keyId, k.accountId, k.keyType, k.role, k.merchantUUID, k.status);
        }
    }

    /** A merchant as a request names it: its account and its UUID or externalMID (the merchant cache's key). */
    private record MerchantName(UUID accountId, String reference) {
    }

    /** A value read from a view, with the views' version read just before it (so it is at least that new). */
    private record Stamped<V>(V value, long version) {
    }

    private final MerchantLookupClient lookup;
    private final TokenMinter minter;
    private final TransactionSynchronizationRegistry transactions;
    /** The views' version as last read: every entry of that version was current when the read began. */
    private final ViewVersion version;
    private final LoadingCache<String, Stamped<KnownKey>> keys;
    private final LoadingCache<MerchantName, Stamped<UUID>> merchants;
    /** Reads of a key's or merchant's row from the views (for tests). */
    private final LongAdder rowReads = new LongAdder();
    /** Runs the background reads of the version (one at a time: each reads one row of the gateway's own database). */
    private final BackgroundRefresh<String> refresher = new BackgroundRefresh<>("directory-refresh");
    /** The lookups at merchant-service running now, one per key or merchant (§89). */
    private final SingleFlight<String, KeyLookup> keyLookups = new SingleFlight<>();
    private final SingleFlight<MerchantName, Boolean> merchantLookups = new SingleFlight<>();
    /** When a key lookup last failed other than with 404 (System.nanoTime), for {@link #keyLookupFailedSince}. */
    private volatile long keyLookupFailedAt = Long.MIN_VALUE;

    public Directory(@RestClient MerchantLookupClient lookup, TokenMinter minter, GatewayConfig config,
            TransactionSynchronizationRegistry transactions) {
        this.lookup = lookup;
        this.minter = minter;
        this.transactions = transactions;
        // read in the caller's transaction (a load's), or in one of its own (the refresh thread, a worker's check)
        this.version = new ViewVersion(config.directoryCacheTtl().toNanos(),
                () -> QuarkusTransaction.joiningExisting().call(Directory::viewVersion));
        // The cache reads only the gateway's own views (a load holds a lock of the cache's map); merchant-service is
        // asked outside it. A load that finds nothing stores nothing.
        Caffeine<Object, Object> builder = Caffeine.newBuilder().expireAfterAccess(IDLE_EXPIRY).maximumSize(100_000);
        this.keys = builder.build(hash -> viewKey(hash).orElse(null));
        this.merchants = builder.build(name -> viewMerchant(name.accountId(), name.reference()).orElse(null));
    }

    @PreDestroy
    void stop() {
        refresher.stop();
    }

    /** The key with this hash, from the cache, the view, or merchant-service (in that order). */
    public Optional<KnownKey> key(String keyHash) {
        Stamped<KnownKey> known = current(keys, keyHash, confirmedVersion());
        if (known == null) {
            // concurrent misses of one key ask merchant-service once and store its answer once (§89)
            KeyLookup lookup = keyLookups.run(keyHash, () -> lookupAndStoreKey(keyHash));
            if (lookup.failed()) {
                // recorded for every caller that shares the failed lookup, after the moment each of them asked
                keyLookupFailedAt = System.nanoTime();
            }
            if (lookup.found()) {
                known = keys.get(keyHash);
            }
        }
        return Optional.ofNullable(known).map(Stamped::value);
    }

    /** The key with this hash if memory holds it, known current (never blocks; may start a background check). */
    public Optional<KnownKey> cachedKey(String keyHash) {
        return inMemory(keys.getIfPresent(keyHash));
    }

    /** The merchant of {@code accountId} named by {@code reference} if memory holds it, known current (never blocks). */
    public Optional<UUID> cachedMerchant(UUID accountId, String reference) {
        return inMemory(merchants.getIfPresent(new MerchantName(accountId, reference)));
    }

    /** The merchant of {@code accountId} named by UUID or externalMID. */
    public Optional<UUID> merchant(UUID accountId, String reference) {
        MerchantName name = new MerchantName(accountId, reference);
        Stamped<UUID> known = current(merchants, name, confirmedVersion());
        if (known == null && merchantLookups.run(name, () -> lookupAndStoreMerchant(name))) {
            known = merchants.get(name);
        }
        return Optional.ofNullable(known).map(Stamped::value);
    }

    /** Called by the keys consumer, in its transaction, for every key it changes. */
    public void evictKey(String keyHash) {
        keys.invalidate(keyHash);
        changedHere();
    }

    /** Called by the merchants consumer, in its transaction; merchants are cached by reference, so all entries go. */
    public void evictMerchants() {
        merchants.invalidateAll();
        changedHere();
    }

    /** Reads of a key's or merchant's row from the views since the start (for tests). */
    long rowReads() {
        return rowReads.sum();
    }

    /**
     * The views changed in the caller's transaction: once it commits, nothing in memory is answered before the version
     * is read again (which then shows the change), so a change consumed here applies to the very next request, and a
     * read that was running meanwhile cannot bring the old state back.
     */
    private void changedHere() {
        if (transactions.getTransactionKey() == null) {
            version.forget();
            return;
        }
        AfterCommit.run(transactions, null, version::forget);
    }

    /** An entry answered from memory: only while its version is the one read within the lifetime. */
    private <V> Optional<V> inMemory(Stamped<V> entry) {
        if (entry == null) {
            return Optional.empty();
        }
        if (version.due()) {
            refreshInBackground(); // so that the entries in use stay answerable, or the next request can tell
        }
        long known = version.known();
        return known != ViewVersion.UNKNOWN && entry.version() == known ? Optional.of(entry.value()) : Optional.empty();
    }

    /** The version to answer with: read now (on this worker) when no read is younger than the lifetime. */
    private long confirmedVersion() {
        long known = version.known();
        if (known == ViewVersion.UNKNOWN) {
            return version.current();
        }
        if (version.due()) {
            refreshInBackground();
        }
        return known;
    }

    /** The entry for {@code key}, read from the view again unless it has the confirmed version. */
    private static <K, V> Stamped<V> current(LoadingCache<K, Stamped<V>> cache, K key, long confirmed) {
        Stamped<V> entry = cache.get(key);
        if (entry != null && entry.version() != confirmed) {
            cache.invalidate(key);
            entry = cache.get(key);
        }
        return entry;
    }

    private void refreshInBackground() {
        refresher.start("directory_version", version::current,
                e -> LOG.debugf("reading the directory's version failed: %s", e.getMessage()));
    }

    /** The version of the views, bumped at the commit of every change to them (Flyway V4, directory_version). */
    private static long viewVersion() {
        return ((Number) Panache.getEntityManager()
                .createNativeQuery("select version from directory_version where id = 1").getSingleResult()).longValue();
    }

    /**
     * The key's row, stamped with the version read just before it in the same transaction (so the row is at least that
     * new). Reading it here rather than taking the last read costs one query per load, and spares the event loop a
     * miss: an entry stamped with an older version than the views had would be missed there once the newer one is read.
     */
    private Optional<Stamped<KnownKey>> viewKey(String keyHash) {
        rowReads.increment();
        return QuarkusTransaction.requiringNew().call(() -> {
            long stamp = version.readNow();
            return Optional.ofNullable(StoredKey.<StoredKey>findById(keyHash))
                    .map(k -> new Stamped<>(KnownKey.of(k), stamp));
        });
    }

    private Optional<Stamped<UUID>> viewMerchant(UUID accountId, String reference) {
        rowReads.increment();
        return QuarkusTransaction.requiringNew().call(() -> {
            long stamp = version.readNow();
            return StoredMerchant.resolve(accountId, reference).map(m -> new Stamped<>(m.merchantId, stamp));
        });
    }

    /** What one lookup of a key at merchant-service came to. */
    private record KeyLookup(boolean found, boolean failed) {
    }

    /**
     * Asks merchant-service outside any transaction (a remote call must not hold a database connection), then stores
     * a key it knows in the view. Not found (404): neither found nor failed; no answer or another status: failed.
     */
    private KeyLookup lookupAndStoreKey(String keyHash) {
        // A caller that missed the key in the view just before another caller's lookup stored it, and asks after that
        // lookup ended, would ask merchant-service again: the view is read once more first (a second request of a
        // burst on a busy machine did; DirectoryLookupBurstTest).
        if (keys.get(keyHash) != null) {
            return new KeyLookup(true, false);
        }
        KeyState state;
        try {
            state = lookup.key(bearer(), keyHash);
        } catch (WebApplicationException e) {
            int status = e.getResponse().getStatus();
            if (status != 404) {
                LOG.warnf("key lookup answered %d", status);
            }
            return new KeyLookup(false, status != 404);
        } catch (RuntimeException e) {
            LOG.warnf("key lookup failed: %s", e.getMessage());
            return new KeyLookup(false, true);
        }
        QuarkusTransaction.requiringNew().run(() -> StoredKey.save(state));
        return new KeyLookup(true, false);
    }

    /**
     * Whether a key lookup at merchant-service failed (no answer, or not a 404) at or after {@code nanoTime}: a key
     * not found then is not known to be unknown, so it is not remembered as such (docs/decisions.md §32).
     */
    public boolean keyLookupFailedSince(long nanoTime) {
        long failed = keyLookupFailedAt;
        return failed != Long.MIN_VALUE && failed - nanoTime >= 0;
    }

    /** Like {@link #lookupAndStoreKey}: whether merchant-service knew the merchant (then it is in the view). */
    private boolean lookupAndStoreMerchant(MerchantName name) {
        if (merchants.get(name) != null) { // stored by a lookup that ended after this caller's miss, as for keys
            return true;
        }
        MerchantLookupClient.MerchantRef found;
        try {
            found = lookup.merchant(bearer(), name.accountId().toString(), name.reference());
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() != 404) {
                LOG.warnf("merchant lookup answered %d", e.getResponse().getStatus());
            }
            return false;
        } catch (RuntimeException e) {
            LOG.warnf("merchant lookup failed: %s", e.getMessage());
            return false;
        }
        QuarkusTransaction.requiringNew().run(() -> StoredMerchant.save(UUID.fromString(found.merchantId()),
                UUID.fromString(found.accountId()), found.externalMID(), found.status(), 0));
        return true;
    }

    private String bearer() {
        return "Bearer " + minter.tokenFor(Identity.GATEWAY);
    }
}
