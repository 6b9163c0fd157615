package dev.cryptopay.transaction.chain;

/**
 * A network's node could not answer (unreachable, timed out, a JSON-RPC error, an answer that makes no sense). Unchecked:
 * the watcher that reads chains treats every such failure alike (log, wait, try the same range again), and it never
 * reaches an API answer. The message names the network and never the node's full URL (it may hold an API key).
 */
public class ChainUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String network;

    public ChainUnavailableException(String network, String message) {
        this(network, message, null);
    }

    public ChainUnavailableException(String network, String message, Throwable cause) {
        super(network + ": " + message, cause);
        this.network = network;
    }

    /** The catalogue network whose node failed, e.g. {@code ethereum}. */
    public String network() {
        return network;
    }
}
