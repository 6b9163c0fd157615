package dev.cryptopay.gateway.auth;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.config.GatewayConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;
import dev.cryptopay.gateway.client.MerchantLookupClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Keys and merchants as the gateway knows them: its own views, fed from the compacted Kafka topics, and on a
 * miss one synchronous lookup to merchant-service whose answer is kept (so a key works the moment it is
 * created); requests that miss the same key or merchant at the same time share that one lookup (§89). When
 * merchant-service is down, the views keep answering for everything already known.
 *
 * <p>In front of the views sits a short in-memory cache (default one second), so a busy key costs a database read
 * now and then rather than one per request. The Kafka consumers evict what they change, so a revocation applies at
 * once on the replica that consumed it and within the cache lifetime on the others: nothing is answered from memory
 * longer than that after it was read. A key or merchant in use is read again in the background once half the
 * lifetime has passed (docs/decisions.md §82), so a busy key never expires under its requests: without it, every
 * request arriving while an entry had just expired went to a worker and read the view itself, each second.
 */
@ApplicationScoped
public class Directory {

    private static final Logger LOG = Logger.getLogger(Directory.class);

    /** What authentication needs of a key, detached from the persistence context. */
    public record KnownKey(UUID keyId, UUID accountId, String keyType, String role, UUID merchantUUID, int status) {
        static KnownKey of(StoredKey k) {
            return new KnownKey(k.keyId, k.accountId, k.keyType, k.role, k.merchantUUID, k.status);
        }
    }

    /** A merchant as a request names it: its account and its UUID or externalMID (the merchant cache's key). */
    private record MerchantName(UUID accountId, String reference) {
    }

    private final MerchantLookupClient lookup;
    private final TokenMinter minter;
    private final LoadingCache<String, KnownKey> keys;
    private final LoadingCache<MerchantName, UUID> merchants;
    /** Runs the background re-reads (one at a time: each is a single-row read of the gateway's own view). */
    private final ExecutorService refresher = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "directory-refresh");
        thread.setDaemon(true);
        return thread;
    });
    /** The lookups at merchant-service running now, one per key or merchant (§89). */
    private final SingleFlight<String, KeyLookup> keyLookups = new SingleFlight<>();
    private final SingleFlight<MerchantName, Boolean> merchantLookups = new SingleFlight<>();
    /** When a key lookup last failed other than with 404 (System.nanoTime), for {@link #keyLookupFailedSince}. */
    private volatile long keyLookupFailedAt = Long.MIN_VALUE;

    public Directory(@RestClient MerchantLookupClient lookup, TokenMinter minter, GatewayConfig config) {
        this.lookup = lookup;
        this.minter = minter;
        Duration ttl = config.directoryCacheTtl();
        // Caffeine: an entry read more than half the lifetime ago is re-read on the refresher when it is next asked
        // for (the reader gets the current value at once); one past the lifetime is gone, so a stale answer is never
        // older than the lifetime. A reload that finds nothing removes the entry; one that fails keeps it until it
        // expires. An entry evicted while its reload runs is not put back by it. The cache reads only the gateway's
        // own views (a load holds a lock of the cache's map); merchant-service is asked outside it.
        Caffeine<Object, Object> builder = Caffeine.newBuilder().expireAfterWrite(ttl).refreshAfterWrite(ttl.dividedBy(2))
                .maximumSize(100_000).executor(refresher);
        this.keys = builder.build(hash -> viewKey(hash).orElse(null));
        this.merchants = builder.build(name -> viewMerchant(name.accountId(), name.reference()).orElse(null));
    }

    @PreDestroy
    void stop() {
        refresher.shutdownNow();
    }

    /** The key with this hash, from the cache, the view, or merchant-service (in that order). */
    public Optional<KnownKey> key(String keyHash) {
        KnownKey known = keys.get(keyHash);
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
        return Optional.ofNullable(known);
    }

    /** The key with this hash if the in-memory cache holds it (never blocks; may start a background re-read). */
    public Optional<KnownKey> cachedKey(String keyHash) {
        return Optional.ofNullable(keys.getIfPresent(keyHash));
    }

    /** The merchant of {@code accountId} named by {@code reference} if the in-memory cache holds it (never blocks). */
    public Optional<UUID> cachedMerchant(UUID accountId, String reference) {
        return Optional.ofNullable(merchants.getIfPresent(new MerchantName(accountId, reference)));
    }

    /** The merchant of {@code accountId} named by UUID or externalMID. */
    public Optional<UUID> merchant(UUID accountId, String reference) {
        MerchantName name = new MerchantName(accountId, reference);
        UUID known = merchants.get(name);
        if (known == null && merchantLookups.run(name, () -> lookupAndStoreMerchant(name))) {
            known = merchants.get(name);
        }
        return Optional.ofNullable(known);
    }

    /** Called by the keys consumer for every key it changes. */
    public void evictKey(String keyHash) {
        keys.invalidate(keyHash);
    }

    /** Called by the merchants consumer; merchants are cached by reference, so all entries go. */
    public void evictMerchants() {
        merchants.invalidateAll();
    }

    private Optional<KnownKey> viewKey(String keyHash) {
        return QuarkusTransaction.requiringNew()
                .call(() -> Optional.ofNullable(StoredKey.<StoredKey>findById(keyHash)).map(KnownKey::of));
    }

    private Optional<UUID> viewMerchant(UUID accountId, String reference) {
        return QuarkusTransaction.requiringNew()
                .call(() -> StoredMerchant.resolve(accountId, reference).map(m -> m.merchantId));
    }

    /** What one lookup of a key at merchant-service came to. */
    private record KeyLookup(boolean found, boolean failed) {
    }

    /**
     * Asks merchant-service outside any transaction (a remote call must not hold a database connection), then stores
     * a key it knows in the view. Not found (404): neither found nor failed; no answer or another status: failed.
     */
    private KeyLookup lookupAndStoreKey(String keyHash) {
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
