package dev.cryptopay.gateway.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cryptopay.gateway.config.GatewayConfig;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Key hashes recently found nowhere, neither in the gateway's view nor at merchant-service (docs/decisions.md §32).
 * For {@code gateway.unknown-key-cache-ttl} (10 s) such a key is refused without another lookup, so a flood of
 * made-up keys is not a flood of calls to merchant-service. Bounded (old entries go first), per replica. Only
 * merchant-service's 404 makes a key unknown, never a failed lookup. A key-updated event for the hash forgets it at
 * once, so a key created meanwhile works as soon as its event arrives.
 */
@ApplicationScoped
public class UnknownKeys {

    private final Cache<String, Boolean> unknown;

    public UnknownKeys(GatewayConfig config) {
        this.unknown = Caffeine.newBuilder().expireAfterWrite(config.unknownKeyCacheTtl()).maximumSize(100_000).build();
    }

    public boolean isKnownUnknown(String keyHash) {
        return unknown.getIfPresent(keyHash) != null;
    }

    public void remember(String keyHash) {
        unknown.put(keyHash, Boolean.TRUE);
    }

    public void forget(String keyHash) {
        unknown.invalidate(keyHash);
    }
}
