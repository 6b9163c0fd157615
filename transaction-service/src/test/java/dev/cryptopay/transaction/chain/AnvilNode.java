package dev.cryptopay.transaction.chain;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * A test resource that runs a private anvil ({@link AnvilProcess}) for a Quarkus test profile and has
 * transaction-service read {@code ethereum} from it, the other networks staying on the sandbox chain, as
 * deploy/local/start runs the suite. {@link #running()} hands the node to the test, to mine on it.
 */
public class AnvilNode implements QuarkusTestResourceLifecycleManager {

    private static volatile AnvilProcess node;

    /** The node of the profile under test. */
    public static AnvilProcess running() {
        AnvilProcess running = node;
        if (running == null) {
            throw new IllegalStateException("no anvil node: the test profile does not list AnvilNode");
        }
        return running;
    }

    @Override
    public Map<String, String> start() {
        node = AnvilProcess.start();
        return Map.of("cryptopay.transaction.chains.ethereum.rpc-url", node.url());
    }

    @Override
    public void stop() {
        AnvilProcess running = node;
        node = null;
        if (running != null) {
            running.close();
        }
    }
}
