package dev.cryptopay.transaction.chain;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import okhttp3.OkHttpClient;
import org.web3j.crypto.Hash;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.BatchRequest;
import org.web3j.protocol.core.BatchResponse;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.http.HttpService;
import org.web3j.utils.Numeric;

/**
 * {@link ChainAdapter} of an EVM network (Ethereum, Sepolia, a local anvil...) read from a node over JSON-RPC with
 * web3j.
 *
 * <p>Why it reads this way:
 * <ul>
 * <li><b>Constant cost per range.</b> {@link #scan} sends one JSON-RPC batch holding {@code eth_getBlockByNumber} (with
 * full transactions) for every block of the range and a single {@code eth_getLogs} for the ERC-20 {@code Transfer}
 * events of all configured token contracts. Native transfers are the transactions with a value; token transfers
 * are the logs. Nothing is asked per watched address, so watching 20,000 addresses costs what watching one does.
 * A range longer than {@link #MAX_BATCH_BLOCKS} is read as several such batches (nodes cap batch sizes).</li>
 * <li><b>Reorganisations through hashes.</b> Every block comes with its hash and parent hash; within one scan the
 * parent links are checked and the logs must belong to the blocks read, otherwise the chain changed while it was
 * read and the scan fails ({@link ChainUnavailableException}) so the caller simply tries again.</li>
 * <li><b>No mempool.</b> {@link #pending} is empty: a payment counts from its first block, and a node's mempool is
 * neither complete nor final, so reading it would only add noise (and per-transaction calls).</li>
 * </ul>
 *
 * <p>Limits, on purpose: a native transfer is the value of a top-level transaction. ETH that a contract forwards
 * (an "internal transaction") is not seen, as that needs tracing APIs few nodes offer. A plain value transaction to
 * an address without code cannot fail, and the receive addresses are derived keys without code, so no receipt is
 * read. A token transfer is a {@code Transfer} log, which only succeeded transactions leave.
 *
 * <p>Every JSON-RPC method call counts once in {@link #rpcCalls()} and in the Micrometer counter
 * {@code cryptopay.chain.rpc.calls{network}} (a batch counts each member). Node failures become
 * {@link ChainUnavailableException}s naming the network and the node's scheme, host and port only (never the path
 * or query, where providers put API keys). Thread-safe. A plain class, not a CDI bean: the watcher builds one per
 * configured network, calls {@link #verifyChainId()} once, and {@link #close() closes} it on shutdown.
 */
public final class EvmChainAdapter implements ChainAdapter, AutoCloseable {

    /** Topic 0 of an ERC-20 transfer: keccak256("Transfer(address,address,uint256)"). */
    public static final String TRANSFER_TOPIC = Hash.sha3String("Transfer(address,address,uint256)");

    /** Gas of a plain value transfer (fixed by the protocol). */
    public static final long NATIVE_TRANSFER_GAS = 21_000;

    /** Gas budgeted for an ERC-20 {@code transfer} (about 35k-52k in practice; a margin for cold storage slots). */
    public static final long TOKEN_TRANSFER_GAS = 65_000;

    /**
     * Most blocks read in one batch. Public nodes cap batches (geth: 1,000 calls and 25 MB per batch by default), and
     * 100 full mainnet blocks stay well inside that.
     */
    public static final int MAX_BATCH_BLOCKS = 100;

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-f]{40}");

    /** RxJava 2's switch for its scheduler-purge thread (read once, when web3j first loads RxJava's schedulers). */
    static final String RX_PURGE_ENABLED = "rx2.purge-enabled";

    static {
        // Web3j.build loads RxJava 2's schedulers (for web3j's observables, which this class never uses), and with
        // them a thread that wakes every second to purge the schedulers' cancelled tasks: 0.1% of a core in an idle
        // transaction-service, for nothing (docs/performance.md, twenty-seventh step). This class builds every Web3j
        // of the service, so the switch is set before RxJava reads it; an operator's -Drx2.purge-enabled wins.
        if (System.getProperty(RX_PURGE_ENABLED) == null) {
            System.setProperty(RX_PURGE_ENABLED, "false");
        }
    }

    /** A token contract of the network: the catalogue asset it carries and its decimals. */
    public record Token(String asset, int decimals) {
        public Token {
            Objects.requireNonNull(asset, "asset");
            if (decimals < 0 || decimals > 77) {
                throw new IllegalArgumentException("token decimals must be 0..77, got " + decimals);
            }
        }
    }

    private final String network;
    private final String node;
    private final long expectedChainId;
    private final String nativeAsset;
    private final int nativeDecimals;
    private final Map<String, Token> tokens;
    private final Set<String> tokenAssets;
    private final OkHttpClient http;
    private final Web3j web3j;
    private final AtomicLong rpcCalls = new AtomicLong();
    private final Counter rpcCallCounter;

    /**
     * As {@link #EvmChainAdapter(String, String, long, String, int, Map, MeterRegistry)}, counting into Micrometer's
     * global registry (which Quarkus binds to its Prometheus registry).
     */
    public EvmChainAdapter(String network, String rpcUrl, long expectedChainId, String nativeAsset, int nativeDecimals,
            Map<String, Token> tokens) {
        this(network, rpcUrl, expectedChainId, nativeAsset, nativeDecimals, tokens, Metrics.globalRegistry);
    }

    /**
     * @param network the catalogue network, e.g. {@code ethereum}
     * @param rpcUrl the node's HTTP(S) JSON-RPC endpoint
     * @param expectedChainId the chain id the node must serve (checked by {@link #verifyChainId()})
     * @param nativeAsset the native asset's catalogue code, e.g. {@code ETH}
     * @param nativeDecimals its decimals (18 on every EVM network)
     * @param tokens token contract address (any case, {@code 0x} and 40 hex digits) to the asset it carries
     * @param meters where the {@code cryptopay.chain.rpc.calls} counter goes
     */
    public EvmChainAdapter(String network, String rpcUrl, long expectedChainId, String nativeAsset, int nativeDecimals,
            Map<String, Token> tokens, MeterRegistry meters) {
        if (network == null || network.isBlank()) {
            throw new IllegalArgumentException("network is required");
        }
        this.network = network;
        this.node = nodeName(network, rpcUrl);
        this.expectedChainId = expectedChainId;
        this.nativeAsset = Objects.requireNonNull(nativeAsset, "nativeAsset");
        if (nativeDecimals < 0 || nativeDecimals > 77) {
            throw new IllegalArgumentException(network + ": native decimals must be 0..77, got " + nativeDecimals);
        }
        this.nativeDecimals = nativeDecimals;
        Map<String, Token> byAddress = new LinkedHashMap<>();
        tokens.forEach((address, token) -> {
            String key = address.toLowerCase(Locale.ROOT);
            if (!ADDRESS.matcher(key).matches()) {
                throw new IllegalArgumentException(network + ": token contract address " + address + " is not 0x and 40 hex digits");
            }
            byAddress.put(key, Objects.requireNonNull(token, "token of " + address));
        });
        this.tokens = Map.copyOf(byAddress);
        this.tokenAssets = byAddress.values().stream().map(Token::asset).collect(Collectors.toUnmodifiableSet());
        this.http = new OkHttpClient.Builder()
                .connectTimeout(CONNECT_TIMEOUT)
                .readTimeout(READ_TIMEOUT)
                .writeTimeout(READ_TIMEOUT)
                .build();
        // web3j's default gives every instance its own pool plus a JVM shutdown hook; one lazy thread that close()
        // ends is enough (it only serves web3j's polling helpers, which this class does not use).
        ScheduledExecutorService web3jExecutor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("web3j-" + network).daemon().factory());
        this.web3j = Web3j.build(new HttpService(rpcUrl, http), 15_000, web3jExecutor);
        this.rpcCallCounter = Counter.builder("cryptopay.chain.rpc.calls")
                .description("JSON-RPC method calls sent to the network's node (each member of a batch counts)")
                .tag("network", network)
                .register(meters);
    }

    @Override
    public String network() {
        return network;
    }

    /** JSON-RPC method calls sent so far (a batch counts each member), failed ones included. */
    public long rpcCalls() {
        return rpcCalls.get();
    }

    /**
     * Checks once, before the first scan, that the node serves the configured chain ({@code eth_chainId}): a
     * mainnet URL configured for the testnet (or the reverse) must stop the watcher, not credit payments.
     *
     * @throws IllegalStateException on a different chain id
     * @throws ChainUnavailableException when the node does not answer
     */
    @Override
    public void verify() {
        verifyChainId();
    }

    public void verifyChainId() {
        BigInteger actual = call(web3j.ethChainId()).getChainId();
        if (actual == null || actual.compareTo(BigInteger.valueOf(expectedChainId)) != 0) {
            throw new IllegalStateException(network + ": the node at " + node + " serves chain id " + actual
                    + ", but the network's chain id is " + expectedChainId + "; check its RPC URL");
        }
    }

    @Override
    public long head() {
        return quantity(call(web3j.ethBlockNumber()).getBlockNumber(), "eth_blockNumber");
    }

    @Override
    public BlockRef block(long number) {
        requireHeight(number);
        EthBlock.Block block = call(web3j.ethGetBlockByNumber(height(number), false)).getBlock();
        return block == null ? null : ref(block);
    }

    /**
     * One batch per {@value #MAX_BATCH_BLOCKS} blocks: {@code eth_getBlockByNumber} of each block plus one
     * {@code eth_getLogs}, whatever the number of watched addresses. Blocks above the head are left out (the scan
     * ends at the head). Amounts are exact, in whole units at the asset's full scale (1 wei = 0.000000000000000001).
     *
     * @throws ChainUnavailableException when the node fails, or the chain reorganised while the range was read
     */
    @Override
    public Scan scan(long from, long to) {
        requireHeight(from);
        if (to < from) {
            throw new IllegalArgumentException("scan range " + from + ".." + to + " is empty");
        }
        List<BlockRef> blocks = new ArrayList<>();
        List<ChainTransfer> transfers = new ArrayList<>();
        for (long start = from; start <= to; start += MAX_BATCH_BLOCKS) {
            long end = Math.min(to, start + MAX_BATCH_BLOCKS - 1);
            if (!scanBatch(start, end, blocks, transfers)) {
                break; // the head was reached inside this part of the range
            }
        }
        return new Scan(List.copyOf(blocks), List.copyOf(transfers));
    }

    @Override
    public List<ChainTransfer> pending() {
        return List.of();
    }

    @Override
    public BigDecimal gasFee(String asset) {
        long gas;
        if (nativeAsset.equals(asset)) {
            gas = NATIVE_TRANSFER_GAS;
        } else if (tokenAssets.contains(asset)) {
            gas = TOKEN_TRANSFER_GAS;
        } else {
            throw new IllegalArgumentException(network + ": no asset " + asset + " on this network");
        }
        BigInteger gasPrice = call(web3j.ethGasPrice()).getGasPrice();
        return amount(gasPrice.multiply(BigInteger.valueOf(gas)), nativeDecimals);
    }

    @Override
    public Optional<Inclusion> inclusion(String txnHash) {
        Optional<TransactionReceipt> receipt = call(web3j.ethGetTransactionReceipt(txnHash)).getTransactionReceipt();
        return receipt.filter(r -> r.getBlockNumberRaw() != null)
                .map(r -> new Inclusion(r.getBlockNumber().longValueExact(), r.isStatusOK()));
    }

    /** The node's client, for the treasury that signs and sends payouts on this network. */
    public Web3j web3j() {
        return web3j;
    }

    public long chainId() {
        return expectedChainId;
    }

    /** Ends the HTTP client's and web3j's threads. */
    @Override
    public void close() {
        web3j.shutdown();
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }

    // --- scanning -------------------------------------------------------------------------------------------------

    /** A transfer with where it sits in its block, for putting a batch's transfers in chain order. */
    private record Found(long block, long txnIndex, int position, ChainTransfer transfer) {
        static final Comparator<Found> CHAIN_ORDER = Comparator.comparingLong(Found::block)
                .thenComparingLong(Found::txnIndex)
                .thenComparingInt(Found::position);
    }

    /**
     * Reads blocks {@code start}..{@code end} and their token logs in one batch, appending to {@code blocks} and
     * {@code transfers}. Returns false when a block was missing (above the head), so the scan stops there.
     */
    private boolean scanBatch(long start, long end, List<BlockRef> blocks, List<ChainTransfer> transfers) {
        BatchRequest batch = web3j.newBatch();
        for (long number = start; number <= end; number++) {
            batch.add(web3j.ethGetBlockByNumber(height(number), true));
        }
        if (!tokens.isEmpty()) {
            batch.add(transferLogs(start, end));
        }
        List<? extends Response<?>> answers = send(batch);

        List<Found> found = new ArrayList<>();
        Map<Long, String> hashes = new LinkedHashMap<>();
        boolean complete = true;
        int blockCount = (int) (end - start + 1);
        for (int i = 0; i < blockCount; i++) {
            EthBlock.Block block = checked("eth_getBlockByNumber", (EthBlock) answers.get(i)).getBlock();
            if (block == null) {
                complete = false;
                break;
            }
            BlockRef ref = ref(block);
            if (ref.number() != start + i) {
                throw unavailable("asked for block " + (start + i) + ", got block " + ref.number());
            }
            if (!blocks.isEmpty() && !blocks.getLast().hash().equals(ref.parentHash())) {
                throw unavailable("the chain reorganised while blocks " + start + ".." + end + " were read; read them again");
            }
            blocks.add(ref);
            hashes.put(ref.number(), ref.hash());
            collectNative(block, ref, found);
        }
        if (!tokens.isEmpty() && !hashes.isEmpty()) {
            EthLog logs = (EthLog) answers.getLast();
            if (logs.hasError() && !complete) {
                // Nodes refuse eth_getLogs for heights above the head (anvil, geth): ask again for the blocks read.
                logs = call(transferLogs(start, start + hashes.size() - 1));
            }
            collectTokens(checked("eth_getLogs", logs), hashes, found);
        }
        found.sort(Found.CHAIN_ORDER);
        found.forEach(f -> transfers.add(f.transfer()));
        return complete;
    }

    /** One eth_getLogs for the Transfer events of every configured token contract in blocks from..to. */
    private Request<?, EthLog> transferLogs(long from, long to) {
        EthFilter filter = new EthFilter(height(from), height(to), List.copyOf(tokens.keySet()));
        filter.addSingleTopic(TRANSFER_TOPIC);
        return web3j.ethGetLogs(filter);
    }

    private void collectNative(EthBlock.Block block, BlockRef ref, List<Found> found) {
        for (EthBlock.TransactionResult<?> result : block.getTransactions()) {
            if (!(result instanceof EthBlock.TransactionObject txn)) {
                throw unavailable("block " + ref.number() + " came without its transactions");
            }
            BigInteger value = txn.getValue();
            // No recipient = a contract creation: whatever it carries goes to the new contract, never to a payment.
            if (value == null || value.signum() <= 0 || txn.getTo() == null) {
                continue;
            }
            ChainTransfer transfer = new ChainTransfer(lower(txn.getHash()), -1, nativeAsset, lower(txn.getFrom()),
                    lower(txn.getTo()), amount(value, nativeDecimals), ref.number(), ref.hash());
            found.add(new Found(ref.number(), quantity(txn.getTransactionIndex(), "transactionIndex"), -1, transfer));
        }
    }

    private void collectTokens(EthLog answer, Map<Long, String> hashes, List<Found> found) {
        for (EthLog.LogResult<?> result : answer.getLogs()) {
            if (!(result instanceof EthLog.LogObject log)) {
                throw unavailable("eth_getLogs answered without the log objects");
            }
            if (log.isRemoved()) {
                continue;
            }
            long number = quantity(log.getBlockNumber(), "log blockNumber");
            String blockHash = hashes.get(number);
            if (blockHash == null) {
                continue; // a block past the head as the blocks were read: the next scan reads it
            }
            if (!blockHash.equalsIgnoreCase(log.getBlockHash())) {
                throw unavailable("the chain reorganised while block " + number + " was read; read it again");
            }
            Token token = tokens.get(lower(log.getAddress()));
            List<String> topics = log.getTopics();
            String data = log.getData();
            // An ERC-20 Transfer has exactly from and to as indexed topics and the value as its 32 data bytes.
            if (token == null || topics == null || topics.size() != 3 || !TRANSFER_TOPIC.equalsIgnoreCase(topics.getFirst())
                    || data == null || data.length() != 66) {
                continue;
            }
            int position = Math.toIntExact(quantity(log.getLogIndex(), "logIndex"));
            ChainTransfer transfer = new ChainTransfer(lower(log.getTransactionHash()), position, token.asset(),
                    topicAddress(topics.get(1)), topicAddress(topics.get(2)),
                    amount(Numeric.toBigInt(data), token.decimals()), number, blockHash.toLowerCase(Locale.ROOT));
            found.add(new Found(number, quantity(log.getTransactionIndex(), "log transactionIndex"), position, transfer));
        }
    }

    // --- JSON-RPC -------------------------------------------------------------------------------------------------

    private <T extends Response<?>> T call(Request<?, T> request) {
        count(1);
        T response;
        try {
            response = request.send();
        } catch (IOException | RuntimeException e) {
            throw unavailable(request.getMethod() + " failed: " + describe(e), e);
        }
        return checked(request.getMethod(), response);
    }

    private List<? extends Response<?>> send(BatchRequest batch) {
        List<Request<?, ? extends Response<?>>> requests = batch.getRequests();
        count(requests.size());
        BatchResponse response;
        try {
            response = batch.send();
        } catch (IOException | RuntimeException e) {
            // A node that refuses a batch answers one error object instead of an array: that ends up here too.
            throw unavailable("a batch of " + requests.size() + " calls failed: " + describe(e), e);
        }
        List<? extends Response<?>> answers = response == null ? null : response.getResponses();
        if (answers == null || answers.size() != requests.size()) {
            throw unavailable("a batch of " + requests.size() + " calls got " + (answers == null ? "no" : answers.size()) + " answers");
        }
        for (int i = 0; i < answers.size(); i++) {
            // web3j pairs answers with calls by position; nodes keep the order, but JSON-RPC does not promise it.
            if (answers.get(i) == null || answers.get(i).getId() != requests.get(i).getId()) {
                throw unavailable("the node answered a batch out of order");
            }
        }
        return answers; // the caller checks each answer for a JSON-RPC error
    }

    private <T extends Response<?>> T checked(String method, T response) {
        if (response == null) {
            throw unavailable(method + " got no answer");
        }
        if (response.hasError()) {
            Response.Error error = response.getError();
            throw unavailable(method + " failed: " + error.getMessage() + " (JSON-RPC error " + error.getCode() + ")");
        }
        return response;
    }

    private void count(int calls) {
        rpcCalls.addAndGet(calls);
        rpcCallCounter.increment(calls);
    }

    private ChainUnavailableException unavailable(String message) {
        return unavailable(message, null);
    }

    private ChainUnavailableException unavailable(String message, Throwable cause) {
        return new ChainUnavailableException(network, message + " (node " + node + ")", cause);
    }

    // --- conversions ----------------------------------------------------------------------------------------------

    /** An integer amount of the smallest unit (wei, token units) as an exact decimal of whole units. */
    static BigDecimal amount(BigInteger units, int decimals) {
        return new BigDecimal(units).movePointLeft(decimals);
    }

    private BlockRef ref(EthBlock.Block block) {
        return new BlockRef(quantity(block.getNumber(), "block number"), lower(block.getHash()), lower(block.getParentHash()));
    }

    private long quantity(BigInteger value, String what) {
        if (value == null || value.signum() < 0 || value.bitLength() > 63) {
            throw unavailable("the node answered an unusable " + what + ": " + value);
        }
        return value.longValue();
    }

    private static DefaultBlockParameter height(long number) {
        return DefaultBlockParameter.valueOf(BigInteger.valueOf(number));
    }

    private static void requireHeight(long number) {
        if (number < 0) {
            throw new IllegalArgumentException("block height must be >= 0, got " + number);
        }
    }

    /** The 20-byte address in the low bytes of a 32-byte topic. */
    private static String topicAddress(String topic) {
        return "0x" + topic.substring(topic.length() - 40).toLowerCase(Locale.ROOT);
    }

    private static String lower(String hex) {
        return hex == null ? null : hex.toLowerCase(Locale.ROOT);
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        if (message != null && message.length() > 200) {
            message = message.substring(0, 200) + "...";
        }
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** Scheme, host and port of the node: what logs may show of its RPC URL. */
    public String node() {
        return node;
    }

    /** Scheme, host and port of the RPC URL: enough to tell nodes apart, without a path or query holding a key. */
    private static String nodeName(String network, String rpcUrl) {
        URI uri;
        try {
            uri = URI.create(Objects.requireNonNull(rpcUrl, "rpcUrl"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(network + ": the RPC URL is not a valid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException(network + ": the RPC URL must be an http(s) URL with a host");
        }
        return scheme + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
    }
}
