package dev.cryptopay.transaction.chain;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * One network as payment detection sees it: blocks with their hashes, and the transfers in them. The sandbox chain
 * and real nodes (EVM JSON-RPC) implement it alike, so the watcher treats them exactly the same (docs/decisions.md §9).
 *
 * <p>An adapter reports every transfer of a block range (native value transfers and token transfers of the assets
 * it knows); the watcher keeps those to addresses it watches. Its cost must not depend on how many addresses are
 * watched: a real node is read per block range ({@code eth_getLogs}, block bodies), never per address.
 */
public interface ChainAdapter {

    /** The catalogue network this adapter serves, e.g. {@code ethereum}. */
    String network();

    /** Height of the newest block (the chain head). */
    long head();

    /** The block at {@code number} on the current canonical chain, or {@code null} above the head. */
    BlockRef block(long number);

    /**
     * Blocks {@code from}..{@code to} (inclusive, at most the head) and every transfer in them, in chain order.
     * Reading a range must take a constant number of calls to the node, however many addresses are watched.
     */
    Scan scan(long from, long to);

    /** Transfers broadcast but not yet in a block ({@code blockNumber} null); empty where the mempool isn't read. */
    List<ChainTransfer> pending();

    /**
     * Checks once, before the first pass, that the node is the chain it is configured as (an EVM node's chain id);
     * throws {@link IllegalStateException} when it is not, and {@link ChainUnavailableException} when it can't tell.
     */
    default void verify() {
    }

    /**
     * True when every change to this chain wakes the watcher of the replica that made it, after the change committed
     * (the sandbox chain's {@code ChainAdvanced}): that replica reads the change at once into the shared tables, so
     * the watcher's timed passes read such a chain only as a safety net, once per {@code cryptopay.detection.max-idle-interval}
     * (docs/decisions.md §99). A real node's chain moves by itself and is read at every timed pass.
     */
    default boolean announcesChanges() {
        return false;
    }

    /** The current network fee of a simple transfer of {@code asset}, in the network's native asset. */
    BigDecimal gasFee(String asset);

    /**
     * Where a transaction the platform broadcast (a refund payout) stands: the block it is in, or empty while it is
     * unknown or not yet in a block. Used to confirm payouts, which go to addresses nobody watches.
     */
    Optional<Inclusion> inclusion(String txnHash);

    /** A transaction in block {@code blockNumber}; {@code succeeded} false when it was included but reverted. */
    record Inclusion(long blockNumber, boolean succeeded) {
    }

    /** A block: its height, hash and parent's hash (reorganisations are found by comparing hashes). */
    record BlockRef(long number, String hash, String parentHash) {
    }

    /** What {@link #scan} read: the blocks of the range in order, and the transfers in them. */
    record Scan(List<BlockRef> blocks, List<ChainTransfer> transfers) {
    }

    /**
     * One transfer of {@code amount} (in whole units of {@code asset}, exact decimal, e.g. 0.5 ETH) to
     * {@code toAddress}. ({@code txnHash}, {@code position}) identifies it: position is the log index of a token
     * transfer and -1 for the native value of a transaction. {@code blockNumber}/{@code blockHash} are null while
     * it is pending.
     */
    record ChainTransfer(String txnHash, int position, String asset, String fromAddress, String toAddress,
            BigDecimal amount, Long blockNumber, String blockHash) {
    }
}
