package dev.cryptopay.webhook.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How webhooks are delivered (docs/decisions.md §7). Defaults are production values; tests scale the schedule down
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

    /**
     * While its claims find nothing and nothing is in flight, the dispatcher's wait doubles from the poll interval up
     * to this (docs/decisions.md §76). New deliveries, redeliveries and this instance's own retries (it knows when
     * they fall due) still wake it on time; only work another instance left behind may wait this long.
     */
    @WithDefault("4s")
    Duration maxIdlePollInterval();

    /**
     * Address ranges webhook URLs may lead to although they are not public ({@code 127.0.0.0/8,::1}): for local
     * testing only, set by the test suite and the local scripts, never in a deployment. Link-local addresses and
     * the IPv6 transition ranges stay refused whatever this says (docs/decisions.md §41).
     */
    Optional<List<String>> allowedTargets();

    /**
     * How long the body of an event is kept for redelivery (docs/decisions.md §43). Afterwards it is deleted unless
     * a delivery of it is still pending; the delivery log keeps its entries, and redelivering one answers 409.
     */
    @WithDefault("30d")
    Duration payloadRetention();

    /** Signing secrets (docs/decisions.md §42). */
    Secrets secrets();

    interface Secrets {

        /**
         * The AES-256 key (standard base64 of 32 bytes) that encrypts signing secrets at rest
         * ({@code WEBHOOK_SECRET_ENCRYPTION_KEY}). Required: the service does not start without it, and
         * in production it refuses the local development value.
         */
        String encryptionKey();

        /** After a rotation, the previous secret still signs (beside the new one) for this long. */
        @WithDefault("24h")
        Duration rotationOverlap();
    }
}
