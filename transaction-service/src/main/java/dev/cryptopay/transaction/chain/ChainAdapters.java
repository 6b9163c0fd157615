package dev.cryptopay.transaction.chain;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.transaction.config.Environment;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Which adapter watches each network of the catalogue: a real node where one is configured
 * ({@code cryptopay.transaction.chains.<network>}), else the sandbox chain in the sandbox; in production a
 * network without a node is not watched (logged at start).
 */
@ApplicationScoped
public class ChainAdapters {

    private static final Logger LOG = Logger.getLogger(ChainAdapters.class);

    private final Map<String, ChainAdapter> adapters = new LinkedHashMap<>();

    public ChainAdapters(TransactionServiceConfig config, Environment environment) {
        for (Catalogue.Network network : Catalogue.get().networks()) {
            TransactionServiceConfig.Chain node = config.chains().get(network.name());
            if (node != null) {
                if (!"evm".equals(network.family())) {
                    LOG.warnf("A node is configured for %s, but only EVM nodes can be watched so far; ignored",
                            network.name());
                } else {
                    EvmChainAdapter adapter = EvmChainAdapters.create(network, node, environment);
                    adapters.put(network.name(), adapter);
                    LOG.infof("Watching %s on the node at %s", network.name(), adapter.node());
                    continue;
                }
            }
            if (environment.sandbox()) {
                adapters.put(network.name(), new SandboxChainAdapter(network.name()));
            } else {
                LOG.warnf("No node is configured for %s (cryptopay.transaction.chains.%s.rpc-url): payments on it "
                        + "are not detected", network.name(), network.name());
            }
        }
    }

    @PreDestroy
    void close() {
        adapters.values().stream().filter(EvmChainAdapter.class::isInstance).map(EvmChainAdapter.class::cast)
                .forEach(EvmChainAdapter::close);
    }

    public Collection<ChainAdapter> all() {
        return adapters.values();
    }

    public Optional<ChainAdapter> of(String network) {
        return Optional.ofNullable(adapters.get(network));
    }

    /** True when the network is simulated by the sandbox chain (the sandbox API may drive it). */
    public boolean simulated(String network) {
        return adapters.get(network) instanceof SandboxChainAdapter;
    }
}
