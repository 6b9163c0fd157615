package dev.cryptopay.gateway.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cryptopay.gateway.config.GatewayConfig;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * Token buckets (Bucket4j) per API or publishable key, and per client address for calls without a key and
 * for failed authentications (so guessing keys is throttled too). Buckets live in this gateway replica's
 * memory, evicted after ten idle minutes; with N replicas a client may get up to N times the rate.
 */
@ApplicationScoped
public class RateLimiter {

    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10))
            .maximumSize(200_000)
            .build();
    private final GatewayConfig.Limit perKey;
    private final GatewayConfig.Limit perAddress;

    public RateLimiter(GatewayConfig config) {
        this.perKey = config.rateLimit().perKey();
        this.perAddress = config.rateLimit().perAddress();
    }

    /** Takes one token for the key; empty when allowed, else the seconds to wait. */
    public OptionalLong forKey(String keyId) {
        return take("k:" + keyId, perKey);
    }

    /** Takes one token for the client address. */
    public OptionalLong forAddress(String address) {
        return take("a:" + address, perAddress);
    }

    private OptionalLong take(String id, GatewayConfig.Limit limit) {
        Bucket bucket = buckets.get(id, k -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(limit.capacity())
                        .refillGreedy(limit.refillPerSecond(), Duration.ofSeconds(1)).build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L));
    }
}
