package dev.cryptopay.transaction.chain;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.transaction.config.Environment;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the adapter of an EVM network from its node's configuration and the environment's token contracts. */
final class EvmChainAdapters {

    private EvmChainAdapters() {
    }

    static EvmChainAdapter create(Catalogue.Network network, TransactionServiceConfig.Chain node,
            Environment environment) {
        Catalogue catalogue = Catalogue.get();
        Map<String, EvmChainAdapter.Token> tokens = new LinkedHashMap<>();
        for (Catalogue.Asset asset : catalogue.assets()) {
            if (asset.networks().contains(network.name()) && !Environment.isNative(network, asset)) {
                environment.tokenContract(network.name(), asset.code()).ifPresent(
                        contract -> tokens.put(contract, new EvmChainAdapter.Token(asset.code(), asset.decimals())));
            }
        }
        Long chainId = node.chainId().orElse(environment.chainId(network));
        if (chainId == null) {
            throw new IllegalStateException("No chain id for " + network.name() + "; set cryptopay.transaction.chains."
                    + network.name() + ".chain-id");
        }
        int decimals = catalogue.asset(network.nativeAsset()).map(Catalogue.Asset::decimals).orElse(18);
        return new EvmChainAdapter(network.name(), node.rpcUrl(), chainId, network.nativeAsset(), decimals, tokens);
    }
}
