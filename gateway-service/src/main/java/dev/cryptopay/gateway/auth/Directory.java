package dev.cryptopay.gateway.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.config.GatewayConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;
import dev.cryptopay.gateway.client.MerchantLookupClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Keys and merchants as the gateway knows them: its own views, fed from the compacted Kafka topics, and on a
 * miss one synchronous lookup to merchant-service whose answer is kept (so a key works the moment it is
 * created). When merchant-service is down, the views keep answering for everything already known.
 *
 * <p>In front of the views sits a short in-memory cache (default one second), so a busy key costs one database
 * read per second rather than one per request. The Kafka consumers evict what they change, so a revocation
 * applies at once on the replica that consumed it and within the cache lifetime on the others.
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

    private final MerchantLookupClient lookup;
    private final TokenMinter minter;
    private final Cache<String, KnownKey> keys;
    private final Cache<String, UUID> merchants;
    /** When a key lookup last failed other than with 404 (System.nanoTime), for {@link #keyLookupFailedSince}. */
    private volatile long keyLookupFailedAt = Long.MIN_VALUE;

    public Directory(@RestClient MerchantLookupClient lookup, TokenMinter minter, GatewayConfig config) {
        this.lookup = lookup;
        this.minter = minter;
        this.keys = Caffeine.newBuilder().expireAfterWrite(config.directoryCacheTtl()).maximumSize(100_000).build();
        this.merchants = Caffeine.newBuilder().expireAfterWrite(config.directoryCacheTtl()).maximumSize(100_000)
                .build();
    }

    /** The key with this hash, from the cache, the view, or merchant-service (in that order). */
    public Optional<KnownKey> key(String keyHash) {
        KnownKey cached = keys.getIfPresent(keyHash);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<KnownKey> found = viewKey(keyHash);
        if (found.isEmpty()) {
            found = lookupKey(keyHash).flatMap(state -> {
                QuarkusTransaction.requiringNew().run(() -> StoredKey.save(state));
                return viewKey(keyHash);
            });
        }
        found.ifPresent(k -> keys.put(keyHash, k));
        return found;
    }

    /** The key with this hash if the in-memory cache holds it (never blocks). */
    public Optional<KnownKey> cachedKey(String keyHash) {
        return Optional.ofNullable(keys.getIfPresent(keyHash));
    }

    /** The merchant of {@code accountId} named by {@code reference} if the in-memory cache holds it (never blocks). */
    public Optional<UUID> cachedMerchant(UUID accountId, String reference) {
        return Optional.ofNullable(merchants.getIfPresent(accountId + "|" + reference));
    }

    /** The merchant of {@code accountId} named by UUID or externalMID. */
    public Optional<UUID> merchant(UUID accountId, String reference) {
        String cacheKey = accountId + "|" + reference;
        UUID cached = merchants.getIfPresent(cacheKey);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<UUID> found = viewMerchant(accountId, reference);
        if (found.isEmpty()) {
            found = lookupMerchant(accountId, reference).flatMap(ref -> {
                QuarkusTransaction.requiringNew().run(() -> StoredMerchant.save(UUID.fromString(ref.merchantId()),
                        UUID.fromString(ref.accountId()), ref.externalMID(), ref.status(), 0));
                return viewMerchant(accountId, reference);
            });
        }
        found.ifPresent(id -> merchants.put(cacheKey, id));
        return found;
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

    /** Outside any transaction: a remote call must not hold a database connection. */
    private Optional<KeyState> lookupKey(String keyHash) {
        try {
            return Optional.of(lookup.key(bearer(), keyHash));
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() != 404) {
                keyLookupFailedAt = System.nanoTime();
                LOG.warnf("key lookup answered %d", e.getResponse().getStatus());
            }
        } catch (RuntimeException e) {
            keyLookupFailedAt = System.nanoTime();
            LOG.warnf("key lookup failed: %s", e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * Whether a key lookup at merchant-service failed (no answer, or not a 404) at or after {@code nanoTime}: a key
     * not found then is not known to be unknown, so it is not remembered as such (docs/decisions.md §32).
     */
    public boolean keyLookupFailedSince(long nanoTime) {
        long failed = keyLookupFailedAt;
        return failed != Long.MIN_VALUE && failed - nanoTime >= 0;
    }

    private Optional<MerchantLookupClient.MerchantRef> lookupMerchant(UUID accountId, String reference) {
        try {
            return Optional.of(lookup.merchant(bearer(), accountId.toString(), reference));
        } catch (WebApplicationException e) {
            if (e.getResponse().getStatus() != 404) {
                LOG.warnf("merchant lookup answered %d", e.getResponse().getStatus());
            }
        } catch (RuntimeException e) {
            LOG.warnf("merchant lookup failed: %s", e.getMessage());
        }
        return Optional.empty();
    }

    private String bearer() {
        return "Bearer " + minter.tokenFor(Identity.GATEWAY);
    }
}
