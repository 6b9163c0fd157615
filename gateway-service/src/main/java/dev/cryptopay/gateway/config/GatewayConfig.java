package dev.cryptopay.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Typed configuration of the gateway (prefix {@code gateway}). */
@ConfigMapping(prefix = "gateway")
public interface GatewayConfig {

    /** Base URLs of the downstream services. */
    Services services();

    /**
     * Lifetime of the internal identity token; one identity's token is handed out for half of it, and signed again in
     * the background once two fifths have passed (docs/decisions.md §77, §107).
     */
    @WithDefault("60s")
    Duration identityTokenLifetime();

    /**
     * How long ago the views' version may have been read for a key or merchant kept in memory to be answered from it
     * (bounds how long a revocation consumed by another replica goes unseen; docs/decisions.md §106).
     */
    @WithDefault("1s")
    Duration directoryCacheTtl();

    /**
     * How long a key that is unknown (neither in the view nor at merchant-service) is remembered as unknown, so a
     * flood of made-up keys costs one lookup each per this period (docs/decisions.md §32). A key-updated event for
     * the key forgets it at once.
     */
    @WithDefault("10s")
    Duration unknownKeyCacheTtl();

    ClientAddress clientAddress();

    /** How long a downstream call may take before the client gets a 503. */
    @WithDefault("30s")
    Duration downstreamTimeout();

    Operator operator();

    RateLimit rateLimit();

    BodyLimits limits();

    Idempotency idempotency();

    interface RateLimit {
        /** Per API or publishable key. */
        Limit perKey();

        /** Per client address, for calls without a key and failed authentications. */
        Limit perAddress();

        /**
         * Per publishable key and client address (docs/decisions.md §31): a publishable key is public on its
         * checkout, so one client may not drain the merchant's whole key bucket.
         */
        Limit perPublishableAddress();
    }

    /**
     * Where the client address used for rate limits comes from (docs/decisions.md §31). Without a header, the socket
     * peer. With one, its right-most value, which the trusted proxy in front of the gateway appended; it is used only
     * when the socket peer is one of {@code trusted-proxies} (when that list is given) and is never taken from a
     * client that reaches the gateway directly.
     */
    interface ClientAddress {
        /** e.g. {@code X-Forwarded-For} or {@code X-Real-IP}; absent means the socket peer. */
        Optional<String> header();

        /** Socket peers (exact addresses) whose header is believed; absent means every peer (gateway only behind the proxy). */
        Optional<List<String>> trustedProxies();
    }

    interface Limit {
        /** Burst: tokens in a full bucket. */
        long capacity();

        /** Tokens added per second. */
        long refillPerSecond();
    }

    interface BodyLimits {
        /** Largest JSON (non-multipart) body, in bytes (docs/decisions.md §4: 1 MiB). */
        @WithDefault("1048576")
        long jsonBytes();

        /**
         * Largest multipart body, in bytes: two files of 10 MiB (KYC front and rear) plus the form fields.
         * The owning service checks each file against 10 MiB.
         */
        @WithDefault("22020096")
        long multipartBytes();
    }

    interface Idempotency {
        /** How long an Idempotency-Key is remembered (docs/decisions.md §6: 24 hours). */
        @WithDefault("24h")
        Duration retention();

        /** After this long, a first request that never finished no longer blocks retries with 409. */
        @WithDefault("60s")
        Duration inFlightTimeout();
    }

    interface Services {
        String merchant();

        String transaction();

        String subscription();

        String webhook();

        String reporting();
    }

    interface Operator {
        /** Expected {@code iss} of operator tokens. */
        String issuer();

        /** Expected {@code aud} of operator tokens (docs/decisions.md §30): a token minted for another API is refused. */
        @WithDefault("cryptopay-operator-api")
        String audience();

        /**
         * Longest lifetime an operator token may have ({@code exp - iat}, both required; docs/decisions.md §30).
         * Together with the expiry check, no operator token is honoured more than this long after it was issued.
         */
        @WithDefault("1h")
        Duration maxTokenAge();

        /** PEM public key that verifies operator tokens; absent means operator paths are closed. */
        Optional<String> publicKeyLocation();
    }
}
