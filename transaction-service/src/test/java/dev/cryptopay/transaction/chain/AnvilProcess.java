package dev.cryptopay.transaction.chain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A private anvil EVM node for a test class: the binary that {@code npm ci} installs into {@code deploy/evm/node_modules}
 * (deploy/local/up --test does that on a fresh clone), on a free port, with the chain id and test mnemonic of
 * deploy/local/anvil.sh. Start it in {@code @BeforeAll}, {@link #close()} it in {@code @AfterAll}. Also a tiny JSON-RPC
 * client for driving the chain (sending from the unlocked accounts, mining, snapshots), kept apart from web3j so the
 * tests do not check the adapter with itself.
 */
public final class AnvilProcess implements AutoCloseable {

    public static final long CHAIN_ID = 11_155_111;
    public static final String MNEMONIC = "test test test test test test test test test test test junk";
    /** The first accounts of {@link #MNEMONIC} (unlocked, 10,000 ETH each). */
    public static final List<String> ACCOUNTS = List.of(
            "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
            "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
            "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
            "0x90f79bf6eb2c4f870365e785982e1f101e93b906");
    /** Where the test token lands when it is account 0's first transaction. */
    public static final String TOKEN_ADDRESS = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final String url;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private long nextId = 1;

    private AnvilProcess(Process process, int port, Path log) {
        this.process = process;
        this.url = "http://127.0.0.1:" + port;
        this.log = log;
    }

    /** Starts a fresh chain on a free port and waits until it answers JSON-RPC. */
    public static AnvilProcess start() {
        Path evm = evmDir();
        Path binary = binary(evm);
        IOException lastFailure = null;
        for (int attempt = 1; attempt <= 3; attempt++) { // a free port can be taken before anvil binds it
            int port = freePort();
            Path log = Path.of("target", "anvil-" + port + ".log").toAbsolutePath();
            try {
                Files.createDirectories(log.getParent());
                Process process = new ProcessBuilder(binary.toString(), "--host", "127.0.0.1", "--port", String.valueOf(port),
                        "--chain-id", String.valueOf(CHAIN_ID), "--mnemonic", MNEMONIC)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
                AnvilProcess anvil = new AnvilProcess(process, port, log);
                if (anvil.awaitRpc()) {
                    Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
                    return anvil;
                }
                anvil.close();
            } catch (IOException e) {
                lastFailure = e;
            }
        }
        throw new IllegalStateException("anvil (" + binary + ") did not answer JSON-RPC; see target/anvil-*.log", lastFailure);
    }

    public String url() {
        return url;
    }

    /** Deploys deploy/evm/TestToken.bin from account 0 (mined at once) and returns the contract's address. */
    public String deployToken() {
        String bytecode;
        try {
            bytecode = Files.readString(evmDir().resolve("TestToken.bin")).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("deploy/evm/TestToken.bin is missing (it is committed; rebuild it with deploy/evm/compile.sh)", e);
        }
        ObjectNode txn = JSON.createObjectNode().put("from", ACCOUNTS.get(0)).put("data", "0x" + bytecode).put("gas", "0x200000");
        JsonNode receipt = receipt(call("eth_sendTransaction", txn).asText());
        if (!"0x1".equals(receipt.path("status").asText())) {
            throw new IllegalStateException("deploying the test token failed: " + receipt);
        }
        return receipt.path("contractAddress").asText();
    }

    /** Sends {@code wei} from an unlocked account; returns the transaction hash. */
    public String sendEth(String from, String to, BigInteger wei) {
        ObjectNode txn = JSON.createObjectNode().put("from", from).put("to", to).put("value", quantity(wei));
        return call("eth_sendTransaction", txn).asText();
    }

    /** Calls {@code transfer(to, units)} of the token from an unlocked account; returns the transaction hash. */
    public String sendToken(String token, String from, String to, BigInteger units) {
        String data = "0xa9059cbb" + word(new BigInteger(to.substring(2), 16)) + word(units);
        ObjectNode txn = JSON.createObjectNode().put("from", from).put("to", token).put("data", data).put("gas", "0x30000");
        return call("eth_sendTransaction", txn).asText();
    }

    /**
     * The transaction's receipt (blockNumber, blockHash, transactionIndex, logs...), waiting up to 5 s for it: anvil
     * answers eth_sendTransaction before its automined block is in place.
     */
    public JsonNode receipt(String txnHash) {
        for (int attempt = 0; attempt < 100; attempt++) {
            JsonNode receipt = call("eth_getTransactionReceipt", txnHash);
            if (receipt != null && !receipt.isNull()) {
                return receipt;
            }
            sleep(50);
        }
        throw new IllegalStateException("transaction " + txnHash + " is not mined");
    }

    /** On (the default: a block per transaction) or off (transactions wait for {@link #mine}). */
    public void automine(boolean on) {
        call("evm_setAutomine", on);
    }

    public void mine(int blocks) {
        call("anvil_mine", quantity(BigInteger.valueOf(blocks)));
    }

    public long blockNumber() {
        return Long.decode(call("eth_blockNumber").asText());
    }

    public String snapshot() {
        return call("evm_snapshot").asText();
    }

    public void revert(String snapshot) {
        if (!call("evm_revert", snapshot).asBoolean()) {
            throw new IllegalStateException("evm_revert " + snapshot + " refused");
        }
    }

    /** A JSON-RPC call; its result (JSON null for a null result), or an exception for an error. */
    public JsonNode call(String method, Object... params) {
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", nextId++).put("method", method);
        ArrayNode array = request.putArray("params");
        for (Object param : params) {
            array.add(JSON.valueToTree(param));
        }
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            JsonNode answer = JSON.readTree(response.body());
            if (answer.has("error")) {
                throw new IllegalStateException(method + " failed: " + answer.get("error"));
            }
            return answer.get("result");
        } catch (IOException e) {
            throw new UncheckedIOException(method + " at " + url + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private boolean awaitRpc() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return false;
            }
            try {
                call("eth_blockNumber");
                return true;
            } catch (RuntimeException notYet) {
                sleep(100);
            }
        }
        throw new IllegalStateException("anvil did not answer on " + url + " within " + START_TIMEOUT.toSeconds() + " s; see " + log);
    }

    /** The repository's deploy/evm, found from the module directory (where Maven runs the tests) or above. */
    static Path evmDir() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path evm = dir.resolve("deploy/evm");
            if (Files.isRegularFile(evm.resolve("package.json"))) {
                return evm;
            }
        }
        throw new IllegalStateException("deploy/evm not found above " + Path.of("").toAbsolutePath());
    }

    /** The platform binary of @foundry-rs/anvil (its optional dependency @foundry-rs/anvil-<os>-<arch>). */
    private static Path binary(Path evm) {
        Path scope = evm.resolve("node_modules/@foundry-rs");
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(scope)) {
            try (DirectoryStream<Path> packages = Files.newDirectoryStream(scope, "anvil-*")) {
                for (Path pkg : packages) {
                    Path bin = pkg.resolve("bin/anvil");
                    if (Files.isExecutable(bin)) {
                        found.add(bin);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (found.isEmpty()) {
            throw new IllegalStateException("anvil is not installed in " + evm.resolve("node_modules")
                    + ": run deploy/local/up --test or npm ci in deploy/evm");
        }
        return found.getFirst();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String quantity(BigInteger value) {
        return "0x" + value.toString(16);
    }

    private static String word(BigInteger value) {
        String hex = value.toString(16);
        return "0".repeat(64 - hex.length()) + hex;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
