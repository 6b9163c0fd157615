package dev.cryptopay.systemtests.payments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.systemtests.Suite;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;

/**
 * The test EVM node (anvil, started by deploy/local/up --test) driven over plain JSON-RPC, as a customer's wallet
 * and the chain would act: value and token transfers from anvil's unlocked account 0, mining, snapshots.
 */
final class Anvil {

    /** Account 0 of the test mnemonic: funded with ETH and holding the whole supply of the test token. */
    static final String PAYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Anvil() {
    }

    static JsonNode call(String method, Object... params) {
        try {
            String body = JSON.writeValueAsString(java.util.Map.of("jsonrpc", "2.0", "id", 1, "method", method,
                    "params", List.of(params)));
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(Suite.ANVIL))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(), HttpResponse.BodyHandlers.ofString());
            JsonNode answer = JSON.readTree(response.body());
            if (answer.has("error")) {
                throw new AssertionError(method + " failed: " + answer.get("error"));
            }
            return answer.get("result");
        } catch (IOException e) {
            throw new AssertionError("anvil at " + Suite.ANVIL + " does not answer (deploy/local/up --test starts it)",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Account 1 of the test mnemonic: a customer distinct from the treasury (account 0), for refunds. */
    static final String CUSTOMER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    /** Sends {@code eth} ETH to {@code to} (anvil mines it into a block of its own); answers the hash. */
    static String sendEth(String to, BigDecimal eth) {
        return sendEth(PAYER, to, eth);
    }

    static String sendEth(String from, String to, BigDecimal eth) {
        String wei = "0x" + eth.movePointRight(18).toBigIntegerExact().toString(16);
        return call("eth_sendTransaction", java.util.Map.of("from", from, "to", to, "value", wei)).asText();
    }

    /** Sends {@code amount} of the 6-decimal test token to {@code to} with ERC-20 transfer(address,uint256). */
    static String sendToken(String to, BigDecimal amount) {
        return sendToken(PAYER, to, amount);
    }

    static String sendToken(String from, String to, BigDecimal amount) {
        String units = amount.movePointRight(6).toBigIntegerExact().toString(16);
        String data = "0xa9059cbb" + pad(to.substring(2).toLowerCase(Locale.ROOT)) + pad(units);
        return call("eth_sendTransaction", java.util.Map.of("from", from, "to", Suite.TEST_TOKEN, "data", data))
                .asText();
    }

    /** The ETH balance of {@code address}, in wei. */
    static BigInteger balance(String address) {
        return new BigInteger(call("eth_getBalance", address, "latest").asText().substring(2), 16);
    }

    /** The test token balance of {@code address}, in base units (6 decimals). */
    static BigInteger tokenBalance(String address) {
        String data = "0x70a08231" + pad(address.substring(2).toLowerCase(Locale.ROOT));
        String answer = call("eth_call", java.util.Map.of("to", Suite.TEST_TOKEN, "data", data), "latest").asText();
        return new BigInteger(answer.substring(2), 16);
    }

    static void mine(int blocks) {
        call("anvil_mine", "0x" + Integer.toHexString(blocks));
    }

    static long head() {
        return new BigInteger(call("eth_blockNumber").asText().substring(2), 16).longValue();
    }

    static String snapshot() {
        return call("evm_snapshot").asText();
    }

    static void revert(String snapshot) {
        if (!call("evm_revert", snapshot).asBoolean()) {
            throw new AssertionError("evm_revert " + snapshot + " refused");
        }
    }

    private static String pad(String hex) {
        return "0".repeat(64 - hex.length()) + hex;
    }
}
