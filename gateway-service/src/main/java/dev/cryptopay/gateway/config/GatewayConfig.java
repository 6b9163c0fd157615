package dev.cryptopay.gateway.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Typed configuration of the gateway (prefix {@code gateway}). */
@ConfigMapping(prefix = "gateway")
public interface GatewayConfig {

    /** Base URLs of the downstream services. */
    Services services();

    /** Lifetime of the internal identity token minted per request. */
    @WithDefault("60s")
    Duration identityTokenLifetime();

    /** How long a key or merchant read from the views is reused in memory (bounds revocation on other replicas). */
    @WithDefault("1s")
    Duration directoryCacheTtl();

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
    }

    interface Limit {
        /** Burst: tokens in a full bucket. */
        long capacity();

        /** Tokens added per second. */
        long refillPerSecond();
    }

    interface BodyLimits {
        /** Largest JSON (non-multipart) body, in bytes (decisions §4: 1 MiB). */
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
        /** How long an Idempotency-Key is remembered (decisions §6: 24 hours). */
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

        /** PEM public key that verifies operator tokens; absent means operator paths are closed. */
        Optional<String> publicKeyLocation();
    }
}
