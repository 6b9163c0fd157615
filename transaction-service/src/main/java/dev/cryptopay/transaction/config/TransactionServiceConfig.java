package dev.cryptopay.transaction.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

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

    /**
     * Real nodes by network, e.g. {@code cryptopay.transaction.chains.ethereum.rpc-url=http://127.0.0.1:8545}.
     * A network with a node is watched there; without one it is simulated by the sandbox chain in the sandbox and
     * not watched at all in production (a warning at start says so). Only EVM networks take a node so far.
     */
    Map<String, Chain> chains();

    Detection detection();

    Refunds refunds();

    Kyc kyc();

    Screening screening();

    KycRestore kycRestore();

    /** Address screening with the operator's lists (docs/decisions.md §60, §61). */
    interface Screening {
        /**
         * A CSV file of list entries loaded when the service starts ({@code SCREENING_LIST_FILE}; format in
         * docs/transactions.md "Compliance"): every list the file names is replaced by the file's entries.
         */
        Optional<String> listFile();
    }

    /**
     * The KYC restore by e-mail one-time code (docs/decisions.md §64, §65), prefix
     * {@code cryptopay.transaction.kyc-restore}.
     */
    interface KycRestore {
        /**
         * HMAC-SHA256 key of the stored codes and e-mail hashes, base64 ({@code KYC_RESTORE_CODE_KEY}). Absent: derived
         * from the KYC document key (HMAC of a fixed label under it), which production already has to set and which is
         * refused there when it is the LOCAL DEVELOPMENT key; a given key is refused in production when it equals the
         * derived development one.
         */
        Optional<String> codeKey();

        /** How long a code can be entered. */
        @WithDefault("PT10M")
        Duration codeLifetime();

        /** Wrong entries a code takes before it is spent. */
        @WithDefault("5")
        int maxAttempts();

        /** Codes one e-mail address (within an account) may ask for per {@link #window()}. */
        @WithDefault("5")
        int codesPerEmail();

        /** Codes one transaction may ask for per {@link #window()} (whatever the e-mail). */
        @WithDefault("10")
        int codesPerTransaction();

        /** The window of the two limits above. */
        @WithDefault("PT1H")
        Duration window();

        /** Sender of the code e-mails. */
        @WithDefault("kyc@cryptopay.local")
        String mailFrom();
    }

    /** KYC documents at rest (docs/decisions.md §46). */
    interface Kyc {
        /**
         * AES-256-GCM key of the documents, base64 of 32 random bytes ({@code KYC_DOCUMENT_ENCRYPTION_KEY}). No
         * default: a packaged service refuses to start without it; the committed LOCAL DEVELOPMENT key (dev and
         * test profiles, local scripts, system tests) is refused when the environment is production.
         */
        String documentKey();

        /**
         * How long a document is kept after its verification; older ones are deleted by a job (the verification
         * result on the transaction stays). Default five years, the usual AML record-keeping period.
         */
        @WithDefault("P1825D")
        Duration documentRetention();

        /** How often documents past their retention are looked for. */
        @WithDefault("1h")
        Duration purgeInterval();

        /** Most documents encrypted (legacy rows) or deleted in one batch. */
        @WithDefault("20")
        int batch();
    }

    /**
     * Refunds (docs/transactions.md "Refunds"): the window where a merchant's configuration names none, and how
     * payouts leave the platform's treasury (docs/decisions.md §9).
     */
    interface Refunds {
        /** Hours after success (or the last received funds) within which a refund is accepted, by default. */
        @WithDefault("720")
        int defaultWindowHours();

        /** How often pending legs are paid out and broadcast ones checked for confirmations. */
        @WithDefault("1s")
        Duration payoutInterval();

        /** Most legs paid out or checked in one pass. */
        @WithDefault("50")
        int payoutBatch();

        /**
         * The treasury's signing key per EVM network, e.g. {@code cryptopay.transaction.refunds.treasury.ethereum
         * .private-key=0x…}: a secret in production (never committed); locally the anvil dev key of account 0. A
         * network without one is paid out by hand: its legs wait for the operator (PATCH /operator/refunds/{id}).
         * Sandbox-chain networks pay out from the sandbox treasury and need none.
         */
        Map<String, Treasury> treasury();
    }

    interface Treasury {
        String privateKey();
    }

    interface Chain {
        /** The node's JSON-RPC address. */
        String rpcUrl();

        /** The chain id the node must report; defaults to the catalogue's id for this environment. */
        Optional<Long> chainId();

        /** Most blocks read in one pass (one batch call); a watcher behind catches up over several passes. */
        @WithDefault("100")
        int maxBlocksPerScan();
    }

    interface Detection {
        /** Whether this replica watches chains and expires payments (any number of replicas may). */
        @WithDefault("true")
        boolean enabled();

        /** How often every network is read while anything is open (sandbox changes wake the watcher at once). */
        @WithDefault("1s")
        Duration interval();

        /** How often expired payment requests and transactions are looked for. */
        @WithDefault("1s")
        Duration expiryInterval();

        /** Where a first pass over a real node starts: this many blocks below its head. */
        @WithDefault("100")
        int startBlocksBack();

        /** How many recent block hashes are kept per network to find where a reorganisation forked. */
        @WithDefault("256")
        int reorgWindow();

        /**
         * Most transactions (and payment requests) expired in one database transaction. A batch's entities and events
         * live until its commit; at 200 they outlived the young collections of a service under load and were promoted,
         * some 2 kB an expiry (docs/decisions.md §93).
         */
        @WithDefault("100")
        int expiryBatch();
    }

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
