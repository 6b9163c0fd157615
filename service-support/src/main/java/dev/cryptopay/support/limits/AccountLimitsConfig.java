package dev.cryptopay.support.limits;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Per-account caps and quotas (docs/decisions.md, "Limits"): platform defaults, and per-account overrides the
 * operator sets in configuration for an account that needs more (a high-volume merchant) or less. Every service
 * reads the same keys, so one shared configuration (a Kubernetes ConfigMap, the local scripts) sets them for all:
 *
 * <pre>
 * cryptopay.limits.api-keys=100
 * cryptopay.limits.accounts."3f0c…-uuid".api-keys=500
 * </pre>
 *
 * Use {@link AccountLimits#forAccount} rather than this interface.
 */
@ConfigMapping(prefix = "cryptopay.limits")
public interface AccountLimitsConfig {

    // The platform defaults, for every account without an override.

    /** Active keys (API and publishable) an account may hold; creating one more answers 409 limit_reached. */
    @WithDefault("100")
    int apiKeys();

    /** Webhooks an account may hold; creating one more answers 409 limit_reached. */
    @WithDefault("100")
    int webhooks();

    /** Transactions of one merchant that may be open (pending or waiting for KYC) at once. */
    @WithDefault("10000")
    int openTransactionsPerMerchant();

    /**
     * Requests per second all keys of one account may make together through one gateway replica (docs/decisions.md
     * §31), on top of each key's own bucket: creating more keys does not multiply an account's rate.
     */
    @WithDefault("200")
    int requestsPerSecond();

    /** Burst of the account's bucket: requests it may make at once after a quiet spell. */
    @WithDefault("400")
    int requestBurst();

    /**
     * The most gateway replicas that run at once (the gateway's HorizontalPodAutoscaler maxReplicas in deploy/k8s):
     * each enforces the account's rate on its own, so an account's requests across the platform are at most this many
     * times its rate and burst. transaction-service's open-transaction quota relies on it (docs/decisions.md §97).
     */
    @WithDefault("6")
    int gatewayReplicas();

    /** Overrides by account UUID; a setting an override leaves out keeps the default. */
    Map<String, Overrides> accounts();

    interface Overrides {
        OptionalInt apiKeys();

        OptionalInt webhooks();

        OptionalInt openTransactionsPerMerchant();

        OptionalInt requestsPerSecond();

        OptionalInt requestBurst();
    }
}
