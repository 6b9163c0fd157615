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

    /** How long a downstream call may take before the client gets a 503. */
    @WithDefault("30s")
    Duration downstreamTimeout();

    Operator operator();

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
