package dev.cryptopay.support.limits;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The caps and quotas that apply to one account: its overrides from {@link AccountLimitsConfig}, the platform defaults
 * for the rest. Each service enforces the ones it owns (merchant-service the keys, webhook-service the webhooks,
 * transaction-service the open transactions, the gateway the request rates: {@link #rateForAccount}).
 */
@ApplicationScoped
public class AccountLimits {

    /** What applies to one account. */
    public record Limits(int apiKeys, int webhooks, int openTransactionsPerMerchant) {
    }

    /** The account's request rate at the gateway (docs/decisions.md §31): a token bucket per account and replica. */
    public record Rate(int requestsPerSecond, int burst) {
    }

    private final AccountLimitsConfig defaults;
    /** Overrides by lower-case account UUID (operators may paste upper-case ones). */
    private final Map<String, AccountLimitsConfig.Overrides> overrides = new HashMap<>();

    public AccountLimits(AccountLimitsConfig config) {
        this.defaults = config;
        config.accounts().forEach((account, values) -> overrides.put(account.toLowerCase(Locale.ROOT), values));
    }

    /**
     * The shortest time, in seconds, in which the account could make {@code requests} requests across the platform:
     * each gateway replica ({@link AccountLimitsConfig#gatewayReplicas()}) lets through its burst at once and then its
     * rate; 0 when the bursts alone reach that many.
     */
    public double secondsToMake(UUID accountId, long requests) {
        Rate rate = rateForAccount(accountId);
        // at least one replica and one request a second, as the gateway's buckets have (RateLimiter)
        double perReplica = (double) requests / Math.max(1, defaults.gatewayReplicas());
        return Math.max(0, (perReplica - rate.burst()) / Math.max(1, rate.requestsPerSecond()));
    }

    /** The request rate that applies to the account's keys together. */
    public Rate rateForAccount(UUID accountId) {
        AccountLimitsConfig.Overrides overrides = accountId == null ? null : this.overrides.get(accountId.toString());
        if (overrides == null) {
            return new Rate(defaults.requestsPerSecond(), defaults.requestBurst());
        }
        return new Rate(overrides.requestsPerSecond().orElse(defaults.requestsPerSecond()),
                overrides.requestBurst().orElse(defaults.requestBurst()));
    }

    public Limits forAccount(UUID accountId) {
        AccountLimitsConfig.Overrides overrides = accountId == null ? null
                : this.overrides.get(accountId.toString());
        if (overrides == null) {
            return new Limits(defaults.apiKeys(), defaults.webhooks(), defaults.openTransactionsPerMerchant());
        }
        return new Limits(
                overrides.apiKeys().orElse(defaults.apiKeys()),
                overrides.webhooks().orElse(defaults.webhooks()),
                overrides.openTransactionsPerMerchant().orElse(defaults.openTransactionsPerMerchant()));
    }
}
