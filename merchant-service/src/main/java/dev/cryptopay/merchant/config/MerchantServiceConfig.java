package dev.cryptopay.merchant.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;

/** Typed configuration of merchant-service (prefix {@code cryptopay.merchant}). */
@ConfigMapping(prefix = "cryptopay.merchant")
public interface MerchantServiceConfig {

    /**
     * Extended public keys, by network, that sandbox accounts use until the operator sets their own
     * addressProvider. Ignored in production.
     */
    Map<String, String> sandboxXpubs();

    /** The public base address of the API ({base_url}), used for the stable logo URL. */
    @WithDefault("http://127.0.0.1:8080")
    String publicBaseUrl();

    /** Answers of GET /configuration. */
    Checkout checkout();

    interface Checkout {
        @WithDefault("false")
        boolean appPayEnabled();

        @WithDefault("true")
        boolean cryptoPayEnabled();

        @WithDefault("true")
        boolean walletPayEnabled();

        @WithDefault("false")
        boolean walletConnectEnabled();

        /** URL of the blockchain cluster environment shown to checkout pages. */
        @WithDefault("https://sandbox.chain.cryptopay.local")
        String platformPayCluster();
    }
}
