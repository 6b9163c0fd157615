package dev.cryptopay.transaction.chain;

import dev.cryptopay.transaction.domain.SandboxBlock;
import dev.cryptopay.transaction.domain.SandboxTransfer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One network of the sandbox chain, read from the tables {@link SandboxChain} writes: the watcher sees its blocks
 * and transfers through the same interface as a real node's (docs/decisions.md §9). Each call reads in its own short
 * transaction, as a call to a node would.
 */
public final class SandboxChainAdapter implements ChainAdapter {

    private final String network;

    public SandboxChainAdapter(String network) {
        this.network = network;
    }

    @Override
    public String network() {
        return network;
    }

    /** Every transfer and block of the sandbox chain fires {@code ChainAdvanced} when it commits. */
    @Override
    public boolean announcesChanges() {
        return true;
    }

    @Override
    public long head() {
        return QuarkusTransaction.requiringNew().call(() -> SandboxChain.head(network));
    }

    @Override
    public BlockRef block(long number) {
        return QuarkusTransaction.requiringNew().call(() -> {
            SandboxBlock block = SandboxBlock.find("network = ?1 and number = ?2", network, number).firstResult();
            return block == null ? null : ref(block);
        });
    }

    @Override
    public Scan scan(long from, long to) {
        return QuarkusTransaction.requiringNew().call(() -> {
            List<SandboxBlock> blocks = SandboxBlock.list("network = ?1 and number between ?2 and ?3 order by number",
                    network, from, to);
            Map<Long, String> hashes = blocks.stream().collect(Collectors.toMap(b -> b.number, b -> b.hash));
            List<SandboxTransfer> transfers = SandboxTransfer.list(
                    "network = ?1 and blockNumber between ?2 and ?3 order by blockNumber, createdAt, txnHash",
                    network, from, to);
            return new Scan(blocks.stream().map(SandboxChainAdapter::ref).toList(),
                    transfers.stream().map(t -> transfer(t, hashes.get(t.blockNumber))).toList());
        });
    }

    @Override
    public List<ChainTransfer> pending() {
        return QuarkusTransaction.requiringNew().call(() -> SandboxTransfer
                .<SandboxTransfer>list("network = ?1 and blockNumber is null order by createdAt, txnHash", network)
                .stream().map(t -> transfer(t, null)).toList());
    }

    /** The sandbox charges a fixed, nominal fee: 0.00001 of the native asset (or its token equivalent). */
    @Override
    public BigDecimal gasFee(String asset) {
        return new BigDecimal("0.00001");
    }

    @Override
    public Optional<Inclusion> inclusion(String txnHash) {
        return QuarkusTransaction.requiringNew().call(() -> {
            SandboxTransfer transfer = SandboxTransfer.findById(txnHash);
            return transfer == null || transfer.blockNumber == null || !transfer.network.equals(network)
                    ? Optional.<Inclusion>empty() : Optional.of(new Inclusion(transfer.blockNumber, true));
        });
    }

    private static BlockRef ref(SandboxBlock block) {
        return new BlockRef(block.number, block.hash, block.parentHash);
    }

    private static ChainTransfer transfer(SandboxTransfer t, String blockHash) {
        return new ChainTransfer(t.txnHash, 0, t.asset, t.fromAddress, t.toAddress, t.amount, t.blockNumber,
                blockHash);
    }
}
