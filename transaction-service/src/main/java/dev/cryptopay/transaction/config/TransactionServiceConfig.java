package dev.cryptopay.transaction.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/** Typed configuration of transaction-service (prefix {@code cryptopay.transaction}); see docs/transactions.md. */
@ConfigMapping(prefix = "cryptopay.transaction")
public interface TransactionServiceConfig {

    Rates rates();

    /**
     * Token contracts by environment ({@code sandbox}, {@code production}), then network, then asset code, e.g.
     * {@code cryptopay.transaction.token-contracts.production.ethereum.USDC=0xA0b8…}. EIP-681 URIs of token
     * payments name the contract; a token without a contract for the running environment cannot be quoted.
     */
    Map<String, Map<String, Map<String, String>>> tokenContracts();

    /** How long a transaction waits in -3 (KYC) for its verification before it expires. */
    @WithDefault("PT1H")
    Duration kycExpiration();

    interface Rates {
        /** Maximum age of a rate in production; an older one is refused with 503. */
        @WithDefault("PT10M")
        Duration maxAge();

        /**
         * Maximum age in the sandbox, where the operator sets the table by hand and the seed carries the time
         * of seeding: generous, so a sandbox keeps quoting without a rate feed.
         */
        @WithDefault("P365D")
        Duration sandboxMaxAge();

        /** Retry-After of the 503 answered for a stale rate. */
        @WithDefault("60")
        long retryAfterSeconds();
    }
}
