package dev.cryptopay.webhook.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/**
 * How webhooks are delivered (decisions §7). Defaults are production values; tests scale the schedule down
 * ({@code %test.} profile in application.properties, environment variables in the system tests).
 */
@ConfigMapping(prefix = "cryptopay.webhooks")
public interface WebhookConfig {

    /**
     * Waits before each retry: the n-th entry is the wait after the n-th failed attempt. A delivery gets one
     * attempt plus one retry per entry, then it is marked failed.
     */
    @WithDefault("5s,5m,30m,2h,5h,10h,10h")
    List<Duration> retrySchedule();

    /** An attempt that has not been answered completely within this time fails ("no answer"). */
    @WithDefault("10s")
    Duration requestTimeout();

    /**
     * How long a dispatcher owns a claimed delivery. Must exceed the request timeout by a margin: when an
     * instance dies mid-attempt, another one re-sends (with the same {@code webhook-id}) once the lease expired.
     */
    @WithDefault("30s")
    Duration lease();

    /** Concurrent attempts to one webhook endpoint; more due deliveries for it wait in the database. */
    @WithDefault("8")
    int maxInFlightPerEndpoint();

    /** HTTP connections per destination host and port (endpoints sharing a host share these). */
    @WithDefault("32")
    int maxConnectionsPerHost();

    /** Concurrent attempts of this instance in total. */
    @WithDefault("512")
    int maxInFlight();

    /** How often the dispatcher looks for due retries and for work other instances left behind. */
    @WithDefault("250ms")
    Duration pollInterval();
}
