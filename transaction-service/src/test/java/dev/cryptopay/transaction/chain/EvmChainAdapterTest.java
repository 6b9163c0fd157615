package dev.cryptopay.transaction.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.transaction.chain.ChainAdapter.BlockRef;
import dev.cryptopay.transaction.chain.ChainAdapter.ChainTransfer;
import dev.cryptopay.transaction.chain.ChainAdapter.Scan;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link EvmChainAdapter} against a real node: a private anvil (see {@link AnvilProcess}) with the test token, driven
 * through plain JSON-RPC. The expected block numbers, hashes and positions come from the node's receipts.
 */
class EvmChainAdapterTest {

    private static final String NETWORK = "ethereum";
    private static final AtomicInteger NEXT_RECIPIENT = new AtomicInteger(0xa000);

    private static AnvilProcess anvil;
    private static String token;
    private static SimpleMeterRegistry meters;
    private static EvmChainAdapter adapter;

    @BeforeAll
    static void startChain() {
        anvil = AnvilProcess.start();
        token = anvil.deployToken();
        assertEquals(AnvilProcess.TOKEN_ADDRESS, token, "the token is account 0's first transaction");
        meters = new SimpleMeterRegistry();
        // The contract address in upper case: the adapter takes any case.
        adapter = adapter(AnvilProcess.CHAIN_ID, Map.of("0x" + token.substring(2).toUpperCase(Locale.ROOT),
                new EvmChainAdapter.Token("USDC", 6)), meters);
        adapter.verifyChainId();
    }

    @AfterAll
    static void stopChain() {
        if (adapter != null) {
            adapter.close();
        }
        if (anvil != null) {
            anvil.close();
        }
    }

    /**
     * The adapter's web3j has loaded RxJava 2's schedulers by now (Web3j.build does), and no thread purges them every
     * second: RxJava starts that thread unless {@code rx2.purge-enabled} is false when it first loads, and this JVM has
     * no such option of its own. Without the adapter's switch the thread would be alive here, whichever test of this
     * JVM made the first adapter.
     */
    @Test
    void rxJavaStartsNoPurgeThread() {
        assertNotNull(adapter);
        assertEquals("false", System.getProperty(EvmChainAdapter.RX_PURGE_ENABLED));
        assertFalse(io.reactivex.internal.schedulers.SchedulerPoolFactory.PURGE_ENABLED,
                "RxJava read its purge switch before the adapter set it");
        List<String> purgers = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.startsWith("RxSchedulerPurge")).toList();
        assertEquals(List.of(), purgers);
    }

    @Test
    void nativeAndTokenTransfersWithExactAmountsPositionsAndBlocks() {
        String oneWei = recipient();
        String oneAndHalfEth = recipient();
        String oneUnit = recipient();
        String usdc = recipient();
        String sender1 = AnvilProcess.ACCOUNTS.get(1);
        String sender2 = AnvilProcess.ACCOUNTS.get(2);

        // Several transactions in one block (automining off), then a second block with one more.
        anvil.automine(false);
        String t1;
        String t2;
        String t3;
        String t4;
        try {
            t1 = anvil.sendEth(sender1, oneWei, BigInteger.ONE);
            t2 = anvil.sendToken(token, AnvilProcess.ACCOUNTS.get(0), oneUnit, BigInteger.ONE);
            t3 = anvil.sendEth(sender2, oneAndHalfEth, new BigInteger("1500000000000000000"));
            anvil.mine(1);
            t4 = anvil.sendToken(token, AnvilProcess.ACCOUNTS.get(0), usdc, new BigInteger("250750000"));
            anvil.mine(1);
        } finally {
            anvil.automine(true);
        }
        // An ERC-20 that is not configured: its transfers must not show up.
        String other = anvil.deployToken();
        String ignored = recipient();
        anvil.sendToken(other, AnvilProcess.ACCOUNTS.get(0), ignored, BigInteger.TEN);

        JsonNode r1 = anvil.receipt(t1);
        long first = Long.decode(r1.get("blockNumber").asText());
        long last = anvil.blockNumber();
        Scan scan = adapter.scan(first, last);

        assertEquals(last - first + 1, scan.blocks().size());
        for (int i = 0; i < scan.blocks().size(); i++) {
            BlockRef block = scan.blocks().get(i);
            assertEquals(first + i, block.number());
            assertEquals(adapter.block(block.number()), block, "scan and block() agree");
            if (i > 0) {
                assertEquals(scan.blocks().get(i - 1).hash(), block.parentHash());
            }
        }

        List<ChainTransfer> transfers = scan.transfers();
        assertEquals(4, transfers.size(), () -> "transfers: " + transfers);
        assertTrue(transfers.stream().noneMatch(t -> t.toAddress().equals(ignored)), "unconfigured token ignored");

        assertEquals(expected(t1, -1, "ETH", sender1, oneWei, "0.000000000000000001"), find(transfers, t1));
        assertEquals(expected(t3, -1, "ETH", sender2, oneAndHalfEth, "1.500000000000000000"), find(transfers, t3));
        assertEquals(expected(t2, logIndex(t2), "USDC", AnvilProcess.ACCOUNTS.get(0), oneUnit, "0.000001"), find(transfers, t2));
        assertEquals(expected(t4, logIndex(t4), "USDC", AnvilProcess.ACCOUNTS.get(0), usdc, "250.750000"), find(transfers, t4));
        assertEquals(0, new BigDecimal("1E-18").compareTo(find(transfers, t1).amount()), "1 wei");

        // Chain order: by block, then by position of the transaction in its block.
        List<ChainTransfer> sorted = new ArrayList<>(transfers);
        sorted.sort(Comparator.comparingLong(ChainTransfer::blockNumber)
                .thenComparingLong(t -> Long.decode(anvil.receipt(t.txnHash()).get("transactionIndex").asText())));
        assertEquals(sorted, transfers);
    }

    @Test
    void scanCostsTheSameNumberOfCallsForOneOrTwentyWatchedTransfers() {
        int blocks = 5;

        long start = anvil.blockNumber() + 1;
        anvil.sendEth(AnvilProcess.ACCOUNTS.get(1), recipient(), BigInteger.TEN);
        anvil.mine(blocks - 1);
        long before = adapter.rpcCalls();
        Scan one = adapter.scan(start, start + blocks - 1);
        long costOfOne = adapter.rpcCalls() - before;
        assertEquals(1, one.transfers().size());

        start = anvil.blockNumber() + 1;
        anvil.automine(false);
        try {
            for (int i = 0; i < 10; i++) {
                anvil.sendEth(AnvilProcess.ACCOUNTS.get(1 + i % 3), recipient(), BigInteger.valueOf(1000 + i));
                anvil.sendToken(token, AnvilProcess.ACCOUNTS.get(0), recipient(), BigInteger.valueOf(1000 + i));
            }
            anvil.mine(blocks);
        } finally {
            anvil.automine(true);
        }
        before = adapter.rpcCalls();
        Scan twenty = adapter.scan(start, start + blocks - 1);
        long costOfTwenty = adapter.rpcCalls() - before;
        assertEquals(20, twenty.transfers().size());
        assertEquals(20, twenty.transfers().stream().map(ChainTransfer::toAddress).distinct().count());

        assertEquals(costOfOne, costOfTwenty, "a scan costs the same however many transfers or addresses");
        assertEquals(blocks + 1, costOfTwenty, "one eth_getBlockByNumber per block plus one eth_getLogs, in one batch");
        assertEquals(adapter.rpcCalls(), meters.get("cryptopay.chain.rpc.calls").tag("network", NETWORK).counter().count(), 0.0);
    }

    @Test
    void headBlockAndRangesPastTheHead() {
        long head = adapter.head();
        assertEquals(anvil.blockNumber(), head);
        BlockRef block = adapter.block(head);
        assertNotNull(block);
        assertEquals(anvil.call("eth_getBlockByNumber", "0x" + Long.toHexString(head), false).get("hash").asText(), block.hash());
        assertNull(adapter.block(head + 1), "above the head");
        assertEquals(List.of(block), adapter.scan(head, head + 3).blocks(), "a scan ends at the head");
        assertEquals(List.of(), adapter.scan(head + 1, head + 2).blocks());
        assertEquals(List.of(), adapter.pending(), "the mempool is not read");
    }

    @Test
    void aReorganisationShowsThroughTheHashes() {
        String snapshot = anvil.snapshot();
        String to = recipient();
        String txn = anvil.sendEth(AnvilProcess.ACCOUNTS.get(3), to, BigInteger.valueOf(42));
        long number = Long.decode(anvil.receipt(txn).get("blockNumber").asText());
        String hashBefore = adapter.block(number).hash();
        assertEquals(1, adapter.scan(number, number).transfers().stream().filter(t -> t.toAddress().equals(to)).count());

        anvil.revert(snapshot);
        anvil.mine(1);

        BlockRef after = adapter.block(number);
        assertNotNull(after);
        assertNotEquals(hashBefore, after.hash(), "block " + number + " was replaced");
        assertTrue(adapter.scan(number, number).transfers().stream().noneMatch(t -> t.toAddress().equals(to)),
                "the transfer left the chain with its block");
    }

    @Test
    void gasFeeIsThePriceOfATransferInEth() {
        BigDecimal eth = adapter.gasFee("ETH");
        BigDecimal usdc = adapter.gasFee("USDC");
        assertTrue(eth.signum() > 0, "fee " + eth);
        assertTrue(usdc.compareTo(eth) > 0, "a token transfer takes more gas: " + usdc + " vs " + eth);
        assertEquals(18, eth.scale(), "exact, in ETH");
        assertThrows(IllegalArgumentException.class, () -> adapter.gasFee("BTC"));
    }

    @Test
    void aNodeOfAnotherChainIsRefused() {
        try (EvmChainAdapter mainnet = adapter(1, Map.of(), new SimpleMeterRegistry())) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, mainnet::verifyChainId);
            assertTrue(refused.getMessage().contains("11155111") && refused.getMessage().contains(NETWORK), refused.getMessage());
        }
    }

    @Test
    void anUnreachableNodeIsAChainUnavailableExceptionWithoutTheUrlsSecrets() {
        try (EvmChainAdapter down = new EvmChainAdapter(NETWORK, "http://127.0.0.1:1/v3/secret-key", 1, "ETH", 18, Map.of(),
                new SimpleMeterRegistry())) {
            ChainUnavailableException failure = assertThrows(ChainUnavailableException.class, down::head);
            assertEquals(NETWORK, failure.network());
            assertTrue(failure.getMessage().startsWith(NETWORK + ": "), failure.getMessage());
            assertFalse(failure.getMessage().contains("secret-key"), failure.getMessage());
            assertEquals(1, down.rpcCalls(), "a failed call counts too");
        }
    }

    @Test
    void knownAnswers() {
        assertEquals(new BigDecimal("0.000000000000000001"), EvmChainAdapter.amount(BigInteger.ONE, 18));
        assertEquals(new BigDecimal("0.000001"), EvmChainAdapter.amount(BigInteger.ONE, 6));
        assertEquals(new BigDecimal("115792089237316195423570985008687907853269984665640564039457.584007913129639935"),
                EvmChainAdapter.amount(BigInteger.TWO.pow(256).subtract(BigInteger.ONE), 18), "uint256 max, exact");
        assertEquals("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", EvmChainAdapter.TRANSFER_TOPIC);
    }

    // --- helpers --------------------------------------------------------------------------------------------------

    private static EvmChainAdapter adapter(long chainId, Map<String, EvmChainAdapter.Token> tokens, SimpleMeterRegistry registry) {
        return new EvmChainAdapter(NETWORK, anvil.url(), chainId, "ETH", 18, tokens, registry);
    }

    /** A fresh address no test has used: transfers to it are that test's alone. */
    private static String recipient() {
        return String.format("0x%040x", NEXT_RECIPIENT.getAndIncrement());
    }

    private static ChainTransfer expected(String txn, int position, String asset, String from, String to, String amount) {
        JsonNode receipt = anvil.receipt(txn);
        return new ChainTransfer(txn, position, asset, from, to, new BigDecimal(amount),
                Long.decode(receipt.get("blockNumber").asText()), receipt.get("blockHash").asText());
    }

    private static int logIndex(String txn) {
        JsonNode logs = anvil.receipt(txn).get("logs");
        assertEquals(1, logs.size(), "one Transfer log");
        return Integer.decode(logs.get(0).get("logIndex").asText());
    }

    private static ChainTransfer find(List<ChainTransfer> transfers, String txn) {
        return transfers.stream().filter(t -> t.txnHash().equals(txn)).findFirst()
                .orElseThrow(() -> new AssertionError("no transfer of " + txn + " in " + transfers));
    }
}
