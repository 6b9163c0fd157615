package dev.cryptopay.transaction.config;

import dev.cryptopay.support.catalogue.Catalogue;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;

/**
 * What depends on running as sandbox or production (docs/decisions.md §9): bitcoin testnet addresses, EVM chain ids
 * and the token contracts named in EIP-681 URIs.
 */
@ApplicationScoped
public class Environment {

    private final boolean sandbox;
    private final Map<String, Map<String, String>> tokenContracts;

    public Environment(dev.cryptopay.support.environment.Environment environment, TransactionServiceConfig config) {
        this.sandbox = environment.isSandbox();
        this.tokenContracts = config.tokenContracts().getOrDefault(sandbox ? "sandbox" : "production", Map.of());
    }

    public boolean sandbox() {
        return sandbox;
    }

    /** The chain id of an EVM network in this environment (Sepolia, Base Sepolia, Amoy in the sandbox). */
    public Long chainId(Catalogue.Network network) {
        return sandbox ? network.sandboxChainId() : network.productionChainId();
    }

    /** True when {@code asset} is the network's own coin (BTC, ETH, TRX…) rather than a token on it. */
    public static boolean isNative(Catalogue.Network network, Catalogue.Asset asset) {
        return network.nativeAsset().equals(asset.code());
    }

    /** The contract of a token on a network in this environment. */
    public Optional<String> tokenContract(String network, String asset) {
        return Optional.ofNullable(tokenContracts.getOrDefault(network, Map.of()).get(asset));
    }
}
