package dev.cryptopay.gateway.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.support.limits.AccountLimits;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Token buckets (Bucket4j): per API or publishable key; per account, over all its keys (so more keys do not mean more
 * rate); per publishable key and client address (a publishable key is public, so one client may not drain it for
 * everyone); and per client address for calls without a key and for failed authentications (so guessing keys is
 * throttled too). docs/decisions.md §31. Buckets live in this gateway replica's memory, evicted after ten idle minutes;
 * with N replicas a client may get up to N times the rate.
 */
@ApplicationScoped
public class RateLimiter {

    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10))
            .maximumSize(200_000)
            .build();
    private final GatewayConfig.Limit perKey;
    private final GatewayConfig.Limit perAddress;
    private final GatewayConfig.Limit perPublishableAddress;
    private final AccountLimits accountLimits;

    public RateLimiter(GatewayConfig config, AccountLimits accountLimits) {
        this.perKey = config.rateLimit().perKey();
        this.perAddress = config.rateLimit().perAddress();
        this.perPublishableAddress = config.rateLimit().perPublishableAddress();
        this.accountLimits = accountLimits;
    }

    /** Takes one token for the key; empty when allowed, else the seconds to wait. */
    public OptionalLong forKey(String keyId) {
        return take("k:" + keyId, perKey.capacity(), perKey.refillPerSecond());
    }

    /** Takes one token for the account (its configured rate, AccountLimits). */
    public OptionalLong forAccount(UUID accountId) {
        AccountLimits.Rate rate = accountLimits.rateForAccount(accountId);
        return take("acct:" + accountId, rate.burst(), rate.requestsPerSecond());
    }

    /** Takes one token for this client address using this publishable key. */
    public OptionalLong forPublishableKeyAndAddress(String keyId, String address) {
        return take("pa:" + keyId + "|" + address, perPublishableAddress.capacity(),
                perPublishableAddress.refillPerSecond());
    }

    /** Takes one token for the client address. */
    public OptionalLong forAddress(String address) {
        return take("a:" + address, perAddress.capacity(), perAddress.refillPerSecond());
    }

    private OptionalLong take(String id, long capacity, long refillPerSecond) {
        Bucket bucket = buckets.get(id, k -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(Math.max(1, capacity))
                        .refillGreedy(Math.max(1, refillPerSecond), Duration.ofSeconds(1)).build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L));
    }
}
