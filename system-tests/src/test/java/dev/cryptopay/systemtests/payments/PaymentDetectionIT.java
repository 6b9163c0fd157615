package dev.cryptopay.systemtests.payments;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Payment detection across the running services, through the gateway: transfers on the sandbox chain (bitcoin,
 * polygon) and on a real EVM node (ethereum on anvil, ETH and the ERC-20 test token) become confirming, confirmed
 * and successful transactions; under- and over-payment, two requests adding up, expiry, late funds, a
 * reorganisation and a restart of transaction-service in the middle of confirmations.
 * Rates: BTC 50,000, ETH 2,000 and USDC 1 USD, so 100 USD is 0.002 BTC, 0.05 ETH or 100 USDC.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PaymentDetectionIT {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true)).build();

    private static Suite suite;
    private static SandboxAccount account;
    private static String merchant;
    private static String shortLived;
    private static String publishable;

    @BeforeAll
    static void setUp() {
        suite = Suite.throughGateway();
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"BTC\",\"usd\":\"50000\"},{\"code\":\"ETH\",\"usd\":\"2000\"},"
                        + "{\"code\":\"USDC\",\"usd\":\"1\"}]}")
                .when().put("/operator/rates").then().statusCode(200);
        account = SandboxAccount.create("Detection Ltd");
        // an overpayment succeeds (its excess refunded) with autoRefundConfig.overpayment on; off, it is held for
        // review (docs/decisions.md §63; compliance/ScreeningIT)
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"autoRefundConfig\":{\"overpayment\":true}}")
                .when().patch("/operator/accounts/" + account.accountId()).then().statusCode(200);
        merchant = account.newMerchant(merchantBody("Detection Shop", 900));
        shortLived = account.newMerchant(merchantBody("Hasty Shop", 2));
        publishable = account.newKey("publishable", null, merchant);
    }

    /** Bitcoin BTC and ethereum ETH/USDC need 2 confirmations, polygon USDC 1; QR codes live {@code qrSeconds}. */
    private static String merchantBody(String name, int qrSeconds) {
        String two = "{\"minConfirmsLow\":2,\"minConfirmsHigh\":2,\"qrExpirationSeconds\":" + qrSeconds + "}";
        String one = "{\"minConfirmsLow\":1,\"minConfirmsHigh\":1,\"qrExpirationSeconds\":" + qrSeconds + "}";
        return "{\"name\":\"" + name + "\",\"address1\":\"1 Main St\",\"city\":\"Berlin\",\"region\":\"BE\","
                + "\"country\":\"DE\",\"allowedCrypto\":\"BTC,ETH,USDC\",\"cryptoNetworkConfigs\":{"
                + "\"bitcoin\":{\"cryptoAssetConfigs\":{\"BTC\":" + two + "}},"
                + "\"ethereum\":{\"cryptoAssetConfigs\":{\"ETH\":" + two + ",\"USDC\":" + two + "}},"
                + "\"polygon\":{\"cryptoAssetConfigs\":{\"USDC\":" + one + "}}}}";
    }

    @Test
    @Order(1)
    void aSandboxTransferConfirmsAndTheTransactionSucceeds() {
        JsonNode created = create(merchant, "BTC", "bitcoin");
        String id = created.get("transactionId").asText();
        JsonNode receipt = sandboxTransfer("bitcoin", "BTC", created.get("address").asText(), "0.002", 1);

        JsonNode confirming = await(merchant, id, tx -> tx.get("paymentStatus").asInt() == 2);
        assertEquals(0, confirming.get("status").asInt());
        JsonNode payment = confirming.get("payments").get(0);
        assertEquals(2, payment.get("status").asInt());
        assertEquals(1, payment.get("confirmationCount").asInt());
        assertEquals(receipt.get("txnHash").asText(), payment.get("txnHash").asText());

        sandboxMine("bitcoin", 1);
        JsonNode paid = await(merchant, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(1, paid.get("paymentStatus").asInt());
        assertEquals(1, paid.get("payments").get(0).get("status").asInt());
        assertEquals(2, paid.get("payments").get(0).get("confirmationCount").asInt());
        assertDecimal("100", paid.get("amounts").get("receivedUSD"));
        assertDecimal("0", paid.get("remainingUSD"));
        assertEquals(List.of("transaction.created", "transaction.payment_detected", "transaction.success"),
                TransactionEventLog.types(id, types -> types.contains("transaction.success")));
    }

    @Test
    @Order(2)
    void anUnderpaymentAndASecondRequestAddUp() {
        JsonNode created = create(merchant, "BTC", "bitcoin");
        String id = created.get("transactionId").asText();
        sandboxTransfer("bitcoin", "BTC", created.get("address").asText(), "0.0012", 2);
        JsonNode partial = await(merchant, id, tx -> tx.get("paymentStatus").asInt() == 3);
        assertEquals(0, partial.get("status").asInt());
        assertEquals(3, partial.get("payments").get(0).get("status").asInt());
        assertDecimal("40", partial.get("remainingUSD"));
        assertDecimal("60", partial.get("amounts").get("receivedUSD"));

        JsonNode second = tree(given().header("X-Publishable-Key", publishable).contentType(ContentType.JSON)
                .body("{\"asset\":\"USDC\",\"network\":\"polygon\"}").when().post("/transaction/" + id + "/payment"));
        assertDecimal("40", second.get("assetAmount"));
        sandboxTransfer("polygon", "USDC", second.get("address").asText(), "40", 1);
        JsonNode paid = await(merchant, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(1, paid.get("paymentStatus").asInt());
        assertDecimal("100", paid.get("amounts").get("receivedUSD"));
    }

    @Test
    @Order(3)
    void anOverpaymentSucceedsAsOverpaid() {
        JsonNode created = create(merchant, "USDC", "polygon");
        String id = created.get("transactionId").asText();
        sandboxTransfer("polygon", "USDC", created.get("address").asText(), "125.5", 1);
        JsonNode paid = await(merchant, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(4, paid.get("paymentStatus").asInt());
        assertDecimal("125.5", paid.get("amounts").get("receivedUSD"));
        assertDecimal("125.5", paid.get("payments").get(0).get("receivedCrypto"));
    }

    @Test
    @Order(4)
    void anExpiredTransactionRecordsALatePayment() {
        JsonNode created = create(shortLived, "BTC", "bitcoin");
        String id = created.get("transactionId").asText();
        JsonNode expired = await(shortLived, id, tx -> tx.get("status").asInt() == -1);
        assertEquals(-1, expired.get("payments").get(0).get("status").asInt());
        assertEquals(List.of("transaction.created", "transaction.expired"),
                TransactionEventLog.types(id, types -> types.contains("transaction.expired")));

        sandboxTransfer("bitcoin", "BTC", created.get("address").asText(), "0.002", 2);
        JsonNode late = await(shortLived, id, tx -> tx.get("paymentStatus").asInt() == 1);
        assertEquals(-1, late.get("status").asInt());
        JsonNode transfer = late.get("payments").get(0).get("transfers").get(0);
        assertTrue(transfer.get("late").asBoolean());
        assertEquals("confirmed", transfer.get("status").asText());
        assertDecimal("100", late.get("amounts").get("receivedUSD"));
    }

    @Test
    @Order(5)
    void etherAndTokenTransfersOnARealNodeAreDetectedAndConfirmed() {
        JsonNode eth = create(merchant, "ETH", "ethereum");
        String ethId = eth.get("transactionId").asText();
        assertDecimal("0.05", eth.get("assetAmount"));
        assertTrue(eth.get("qrData").asText().startsWith("ethereum:" + eth.get("address").asText() + "@11155111"));
        String hash = Anvil.sendEth(eth.get("address").asText(), new BigDecimal("0.05"));
        JsonNode confirming = await(merchant, ethId, tx -> tx.get("paymentStatus").asInt() == 2);
        assertEquals(hash, confirming.get("payments").get(0).get("txnHash").asText());
        assertEquals(1, confirming.get("payments").get(0).get("confirmationCount").asInt());
        assertEquals(Anvil.PAYER.toLowerCase(), confirming.get("payments").get(0).get("fromAddress").asText());
        Anvil.mine(1);
        JsonNode paid = await(merchant, ethId, tx -> tx.get("status").asInt() == 1);
        assertEquals(2, paid.get("payments").get(0).get("confirmationCount").asInt());
        assertDecimal("0.05", paid.get("payments").get(0).get("receivedCrypto"));

        JsonNode usdc = create(merchant, "USDC", "ethereum");
        String usdcId = usdc.get("transactionId").asText();
        assertTrue(usdc.get("qrData").asText().startsWith("ethereum:" + Suite.TEST_TOKEN + "@11155111/transfer"));
        Anvil.sendToken(usdc.get("address").asText(), new BigDecimal("60"));
        Anvil.sendToken(usdc.get("address").asText(), new BigDecimal("40"));
        Anvil.mine(1);
        JsonNode tokenPaid = await(merchant, usdcId, tx -> tx.get("status").asInt() == 1);
        assertEquals(2, tokenPaid.get("payments").get(0).get("transfers").size());
        assertDecimal("100", tokenPaid.get("payments").get(0).get("receivedCrypto"));
        assertEquals(1, tokenPaid.get("paymentStatus").asInt());
    }

    @Test
    @Order(6)
    void aTransferLostInAReorganisationIsDroppedAndItsReplacementCounts() {
        JsonNode created = create(merchant, "ETH", "ethereum");
        String id = created.get("transactionId").asText();
        String address = created.get("address").asText();
        String snapshot = Anvil.snapshot();
        String lost = Anvil.sendEth(address, new BigDecimal("0.05"));
        await(merchant, id, tx -> tx.get("paymentStatus").asInt() == 2);

        Anvil.revert(snapshot); // the block holding the transfer is gone
        Anvil.mine(3);           // and a longer chain without it replaces it
        JsonNode dropped = await(merchant, id, tx -> tx.get("paymentStatus").asInt() == 0
                && "dropped".equals(tx.at("/payments/0/transfers/0/status").asText()));
        assertEquals(0, dropped.get("payments").get(0).get("status").asInt());
        assertDecimal("0", dropped.get("payments").get(0).get("receivedCrypto"));
        assertEquals(lost, dropped.get("payments").get(0).get("transfers").get(0).get("txnHash").asText());

        Anvil.sendEth(address, new BigDecimal("0.05"));
        Anvil.mine(1);
        JsonNode paid = await(merchant, id, tx -> tx.get("status").asInt() == 1);
        assertDecimal("0.05", paid.get("payments").get(0).get("receivedCrypto"));
    }

    @Test
    @Order(7)
    void aRestartInTheMiddleOfConfirmationsCountsNothingTwiceAndLosesNothing() {
        JsonNode created = create(merchant, "ETH", "ethereum");
        String id = created.get("transactionId").asText();
        Anvil.sendEth(created.get("address").asText(), new BigDecimal("0.03"));
        Anvil.sendEth(created.get("address").asText(), new BigDecimal("0.02"));
        await(merchant, id, tx -> tx.get("payments").get(0).get("transfers").size() == 2);

        suite.kill("transaction");     // SIGKILL: whatever pass was running is cut off
        Anvil.mine(1);                 // confirmations arrive while the watcher is down
        suite.startService("transaction");
        JsonNode paid = await(merchant, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(2, paid.get("payments").get(0).get("transfers").size());
        assertDecimal("0.05", paid.get("payments").get(0).get("receivedCrypto"));
        assertEquals(1, paid.get("paymentStatus").asInt());
        List<String> types = TransactionEventLog.types(id, t -> t.contains("transaction.success"));
        assertEquals(1, types.stream().filter("transaction.success"::equals).count(), types.toString());
        assertTrue(types.stream().filter("transaction.payment_detected"::equals).count() <= 2, types.toString());
    }

    private static JsonNode create(String merchantId, String asset, String network) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            Response response = asApiKey(merchantId).contentType(ContentType.JSON)
                    .body("{\"amount\":100,\"amountCurrency\":\"USD\",\"asset\":\"" + asset + "\",\"network\":\""
                            + network + "\"}")
                    .when().post("/transaction");
            if (response.statusCode() == 201) {
                return tree(response.asString());
            }
            // the new merchant travels to transaction-service through Kafka first
            assertTrue(Instant.now().isBefore(deadline), "no transaction within 30 s: " + response.asString());
            sleep(200);
        }
    }

    private static JsonNode sandboxTransfer(String network, String asset, String to, String amount,
            int confirmations) {
        return tree(given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"" + network + "\",\"asset\":\"" + asset + "\",\"toAddress\":\"" + to
                        + "\",\"amount\":\"" + amount + "\",\"confirmations\":" + confirmations + "}")
                .when().post("/sandbox/chain/transfers").then().statusCode(201).extract().asString());
    }

    private static void sandboxMine(String network, int count) {
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"" + network + "\",\"count\":" + count + "}")
                .when().post("/sandbox/chain/blocks").then().statusCode(200);
    }

    private static io.restassured.specification.RequestSpecification asApiKey(String merchantId) {
        return given().header("X-Api-Key", account.apiKey()).header("X-MID", merchantId);
    }

    /** Polls Get Transaction through the gateway until {@code condition} holds (docs/decisions.md §9: within 5 s). */
    private static JsonNode await(String merchantId, String id, Predicate<JsonNode> condition) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        JsonNode tx = null;
        while (Instant.now().isBefore(deadline)) {
            Response response = asApiKey(merchantId).when().get("/transaction/" + id);
            if (response.statusCode() == 200) {
                tx = tree(response.asString());
                if (condition.test(tx)) {
                    return tx;
                }
            }
            sleep(100);
        }
        throw new AssertionError("condition not reached within 30 s; last state: "
                + (tx == null ? "none" : tx.toPrettyString()));
    }

    private static JsonNode tree(Response response) {
        assertEquals(201, response.statusCode(), response.asString());
        return tree(response.asString());
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    private static void assertDecimal(String expected, JsonNode actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(new BigDecimal(actual.asText())),
                "expected " + expected + " but was " + actual);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
