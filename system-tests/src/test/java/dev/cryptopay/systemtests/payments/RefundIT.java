package dev.cryptopay.systemtests.payments;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Refunds through the gateway on the six running services, the real broker and database (docs/transactions.md
 * "Refunds"): on the sandbox chain with its treasury, and on the real EVM node (anvil) where the treasury key really
 * sends ETH and the test USDC back to the customer. Rates: BTC 50,000, ETH 2,000 and USDC 1 USD.
 */
class RefundIT {

    private static final JsonMapper JSON = JsonMapper.builder()
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true)).build();

    private static SandboxAccount account;
    private static String merchant;
    private static String publishable;

    @BeforeAll
    static void setUp() {
        Suite suite = Suite.throughGateway();
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"BTC\",\"usd\":\"50000\"},{\"code\":\"ETH\",\"usd\":\"2000\"},"
                        + "{\"code\":\"USDC\",\"usd\":\"1\"}]}")
                .when().put("/operator/rates").then().statusCode(200);
        account = SandboxAccount.create("Refunds Ltd");
        // Ethereum deposit addresses from an xpub of the account's own (BIP32 test vector 1's master key). The sandbox
        // default derives from anvil's test mnemonic, whose first addresses are anvil's funded accounts: with the
        // shared cursor at index 1 (RefundIT run alone) a payment address was Anvil.CUSTOMER itself, and the
        // customer's own funding transfer counted as a payment (paymentStatus 4, never paid as expected).
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"addressProvider\":{\"ethereum\":\"xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2"
                        + "gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8\"}}")
                .when().patch("/operator/accounts/" + account.accountId()).then().statusCode(200);
        String one = "{\"minConfirmsLow\":1,\"minConfirmsHigh\":1,\"qrExpirationSeconds\":900}";
        merchant = account.newMerchant("{\"name\":\"Refund Shop\",\"address1\":\"1 Main St\",\"city\":\"Berlin\","
                + "\"region\":\"BE\",\"country\":\"DE\",\"allowedCrypto\":\"BTC,ETH,USDC\",\"cryptoNetworkConfigs\":{"
                + "\"bitcoin\":{\"cryptoAssetConfigs\":{\"BTC\":" + one + "}},"
                + "\"ethereum\":{\"cryptoAssetConfigs\":{\"ETH\":" + one + ",\"USDC\":" + one + "}},"
                + "\"polygon\":{\"cryptoAssetConfigs\":{\"USDC\":" + one + "}}}}");
        publishable = account.newKey("publishable", null, merchant);
    }

    @Test
    void aSandboxRefundIsPaidOutConfirmedAndPublishedAndAReplayChangesNothing() {
        String id = paidOnSandbox("100");
        String key = "refund-" + UUID.randomUUID();
        String body = "{\"amount\":40,\"reason\":\"returned\"}";
        Response first = refund(id, body, key);
        assertEquals(201, first.statusCode(), first.asString());
        JsonNode legs = tree(first.asString());
        assertEquals(1, legs.size());
        assertEquals("0.00079000", legs.get(0).get("assetAmount").asText(), "0.0008 BTC less the 0.00001 fee");
        Response replay = refund(id, body, key);
        assertEquals(201, replay.statusCode());
        assertEquals(legs, tree(replay.asString()), "the replay answers the first answer");
        String refundId = legs.get(0).get("refundID").asText();

        await(id, tx -> tx.get("refunds").size() == 1 && tx.get("refunds").get(0).get("status").asInt() == 2);
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"bitcoin\",\"count\":1}").when().post("/sandbox/chain/blocks")
                .then().statusCode(200);
        JsonNode done = await(id, tx -> tx.get("refunds").get(0).get("status").asInt() == 1);
        assertEquals(1, done.get("refunds").size(), "the replay created nothing");
        assertEquals(done.get("payments").get(0).get("fromAddress").asText(),
                done.get("refunds").get(0).get("receiverAddress").asText());

        // 60 USD are left: more is refused, and nothing is stored for it
        refund(id, "{\"amount\":70}", null).then().statusCode(409).body("code", equalTo("refund_exceeds_paid"));

        List<CloudEvent> refundEvents = TransactionEventLog.events(Topics.REFUNDS, refundId,
                events -> events.size() >= 3);
        assertEquals(List.of("refund.created", "refund.broadcast", "refund.completed"),
                TransactionEventLog.types(refundEvents));
        assertEquals(List.of(1, 2, 3), refundEvents.stream().map(e -> e.data().get("version").asInt()).toList());
        assertEquals(id, refundEvents.get(2).data().get("transactionID").asText());
    }

    /**
     * A leg paid out by hand is recorded by the operator (PATCH /operator/refunds/{refundID}, docs/transactions.md
     * "Refunds"), through the gateway: an account's key never reaches the route, a bad move is answered as the
     * service answers it, and a failed leg is published and gives its crypto back to what is refundable.
     */
    @Test
    void theOperatorFailsALegThroughTheGatewayAndItsCryptoIsRefundableAgain() {
        String id = paidOnSandbox("100");
        String refundId = tree(refund(id, "{\"amount\":30}", null).then().statusCode(201).extract().asString())
                .get(0).get("refundID").asText();
        String operator = Suite.get().operatorToken();
        String fail = "{\"status\":-1,\"reason\":\"address unreachable\"}";

        asApiKey().contentType(ContentType.JSON).body(fail).when().patch("/operator/refunds/" + refundId)
                .then().statusCode(401);
        operatorMove(operator, refundId, "{\"status\":2}").statusCode(400).body("errors.field", hasItem("txnHash"));
        operatorMove(operator, UUID.randomUUID().toString(), fail).statusCode(404);
        // pending, or broadcast on the sandbox chain by now (no block is mined here, so it cannot complete): either
        // may fail
        operatorMove(operator, refundId, fail).statusCode(200).body("status", equalTo(-1))
                .body("failureReason", equalTo("address unreachable"));
        operatorMove(operator, refundId, "{\"status\":1}").statusCode(409).body("code", equalTo("invalid_state"));

        JsonNode failed = await(id, tx -> tx.get("refunds").get(0).get("status").asInt() == -1);
        assertEquals("address unreachable", failed.get("refunds").get(0).get("failureReason").asText());
        List<CloudEvent> events = TransactionEventLog.events(Topics.REFUNDS, refundId,
                list -> TransactionEventLog.types(list).contains("refund.failed"));
        assertEquals("refund.failed", TransactionEventLog.types(events).get(events.size() - 1));
        // the failed 30 USD are refundable again: the whole 100 can go back
        refund(id, "{\"amount\":100,\"gasFeePayer\":\"merchant\"}", null).then().statusCode(201);
    }

    @Test
    void aTransactionsEventsCarryVersionsOneToNWithoutGaps() {
        JsonNode created = create("BTC", "bitcoin", "100");
        String id = created.get("transactionId").asText();
        // a second payment request for the same asset: its own address, and both are listed
        JsonNode second = tree(given().header("X-Publishable-Key", publishable).contentType(ContentType.JSON)
                .body("{\"asset\":\"BTC\",\"network\":\"bitcoin\"}").when().post("/transaction/" + id + "/payment")
                .then().statusCode(201).extract().asString());
        assertNotEquals(created.get("address").asText(), second.get("address").asText());
        sandboxTransfer(second.get("address").asText(), second.get("assetAmount").asText());
        JsonNode paid = await(id, tx -> tx.get("status").asInt() == 1);
        assertEquals(2, paid.get("payments").size());

        List<CloudEvent> events = TransactionEventLog.events(Topics.TRANSACTIONS, id,
                list -> TransactionEventLog.types(list).contains("transaction.success"));
        assertEquals(List.of("transaction.created", "transaction.payment_requested", "transaction.payment_detected",
                "transaction.success"), TransactionEventLog.types(events));
        assertEquals(List.of(1, 2, 3, 4), events.stream().map(e -> e.data().get("version").asInt()).toList());
        JsonNode success = events.get(3).data();
        assertTrue(success.get("compliance").get("kycDetails").isNull());
        JsonNode payment = success.get("payments").get(1);
        assertEquals("BTC", payment.get("gasFeeUnits").asText());
        assertTrue(payment.get("completedAt").isTextual());
        assertEquals(0, new BigDecimal("0.00002").compareTo(payment.get("cryptoRatePerUSD").decimalValue()));
    }

    @Test
    void aCleanCancelRefundsWhatArrivedAndAForfeitKeepsIt() {
        JsonNode created = create("BTC", "bitcoin", "100");
        String id = created.get("transactionId").asText();
        sandboxTransfer(created.get("address").asText(), "0.0005");
        await(id, tx -> tx.get("paymentStatus").asInt() == 3);
        JsonNode cancelled = tree(asApiKey().contentType(ContentType.JSON).body("{\"reason\":\"sold out\"}")
                .when().patch("/transaction/" + id + "/cancel").then().statusCode(200).extract().asString());
        assertEquals(-2, cancelled.get("status").asInt());
        assertEquals(1, cancelled.get("refunds").size());
        assertEquals("merchant", cancelled.get("refunds").get(0).get("gasFeePayer").asText());
        assertEquals(0, new BigDecimal("0.0005").compareTo(cancelled.get("refunds").get(0).get("cryptoAmount")
                .decimalValue()));

        JsonNode other = create("BTC", "bitcoin", "100");
        String forfeitId = other.get("transactionId").asText();
        sandboxTransfer(other.get("address").asText(), "0.0005");
        await(forfeitId, tx -> tx.get("paymentStatus").asInt() == 3);
        JsonNode forfeited = tree(asApiKey().contentType(ContentType.JSON).body("{\"forfeit\":true}")
                .when().patch("/transaction/" + forfeitId + "/cancel").then().statusCode(200).extract().asString());
        assertEquals(-4, forfeited.get("status").asInt());
        assertEquals(0, forfeited.get("refunds").size());
    }

    @Test
    void twentyParallelRefundsNeverExceedWhatWasReceivedAndLegsGoOldestFirst() throws Exception {
        String id = paidOnSandbox("100");
        ExecutorService pool = Executors.newFixedThreadPool(10);
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(() -> refund(id, "{\"amount\":10,\"gasFeePayer\":\"merchant\"}", null).statusCode());
        }
        List<Integer> statuses = new ArrayList<>();
        for (Future<Integer> answer : pool.invokeAll(calls)) {
            statuses.add(answer.get());
        }
        pool.shutdown();
        assertEquals(10, statuses.stream().filter(s -> s == 201).count(), statuses.toString());
        assertEquals(10, statuses.stream().filter(s -> s == 409).count(), statuses.toString());
        BigDecimal refunded = BigDecimal.ZERO;
        for (JsonNode leg : await(id, tx -> true).get("refunds")) {
            refunded = refunded.add(leg.get("cryptoAmount").decimalValue());
        }
        assertEquals(0, new BigDecimal("0.002").compareTo(refunded), "exactly what was received, never more");

        // paid through two requests (BTC then USDC on polygon): 80 USD back is 60 from the first, 20 from the second
        JsonNode created = create("BTC", "bitcoin", "100");
        String twoLegs = created.get("transactionId").asText();
        sandboxTransfer(created.get("address").asText(), "0.0012");
        await(twoLegs, tx -> tx.get("paymentStatus").asInt() == 3);
        JsonNode second = tree(given().header("X-Publishable-Key", publishable).contentType(ContentType.JSON)
                .body("{\"asset\":\"USDC\",\"network\":\"polygon\"}")
                .when().post("/transaction/" + twoLegs + "/payment").then().statusCode(201).extract().asString());
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"polygon\",\"asset\":\"USDC\",\"toAddress\":\""
                        + second.get("address").asText() + "\",\"amount\":\"40\",\"confirmations\":1}")
                .when().post("/sandbox/chain/transfers").then().statusCode(201);
        await(twoLegs, tx -> tx.get("status").asInt() == 1);
        JsonNode legs = tree(refund(twoLegs, "{\"amount\":80}", null).then().statusCode(201).extract().asString());
        assertEquals(2, legs.size());
        assertEquals("0.00119000", legs.get(0).get("assetAmount").asText(), "0.0012 BTC less 0.00001 BTC of gas");
        assertEquals("19.999995", legs.get(1).get("assetAmount").asText(), "20 USDC less 0.00001 POL at 0.5 USD");
    }

    @Test
    void onARealNodeTheTreasurySendsEtherAndTheTokenBackToTheCustomer() {
        // Ether: 100 USD at 2,000 is 0.05 ETH, paid by the customer (account 1); refund 50 USD, the customer bears gas
        JsonNode eth = create("ETH", "ethereum", "100");
        String ethId = eth.get("transactionId").asText();
        Anvil.sendEth(Anvil.CUSTOMER, eth.get("address").asText(), new BigDecimal(eth.get("assetAmount").asText()));
        Anvil.mine(1);
        await(ethId, tx -> tx.get("status").asInt() == 1);
        BigInteger before = Anvil.balance(Anvil.CUSTOMER);
        JsonNode leg = refund(ethId, "{\"amount\":50}", null).then().statusCode(201).extract().as(JsonNode.class).get(0);
        BigDecimal sent = new BigDecimal(leg.get("assetAmount").asText());
        assertTrue(sent.compareTo(new BigDecimal("0.025")) < 0 && sent.signum() > 0, "0.025 ETH less the gas fee");
        JsonNode broadcast = await(ethId, tx -> List.of(1, 2).contains(tx.get("refunds").get(0).get("status").asInt()));
        assertTrue(broadcast.get("refunds").get(0).get("txnHash").asText().startsWith("0x"));
        Anvil.mine(1);
        await(ethId, tx -> tx.get("refunds").get(0).get("status").asInt() == 1);
        assertEquals(sent.movePointRight(18).toBigIntegerExact(), Anvil.balance(Anvil.CUSTOMER).subtract(before),
                "the customer's balance grew by exactly assetAmount");

        // the test USDC: the customer pays 30 USDC, the merchant bears the gas, all 30 go back
        Anvil.sendToken(Anvil.PAYER, Anvil.CUSTOMER, new BigDecimal("100"));
        JsonNode usdc = create("USDC", "ethereum", "30");
        String usdcId = usdc.get("transactionId").asText();
        Anvil.sendToken(Anvil.CUSTOMER, usdc.get("address").asText(), new BigDecimal("30"));
        Anvil.mine(1);
        await(usdcId, tx -> tx.get("status").asInt() == 1);
        BigInteger tokensBefore = Anvil.tokenBalance(Anvil.CUSTOMER);
        JsonNode tokenLeg = refund(usdcId, "{\"amount\":30,\"gasFeePayer\":\"merchant\"}", null).then()
                .statusCode(201).extract().as(JsonNode.class).get(0);
        assertEquals("30.000000", tokenLeg.get("assetAmount").asText());
        await(usdcId, tx -> List.of(1, 2).contains(tx.get("refunds").get(0).get("status").asInt()));
        Anvil.mine(1);
        await(usdcId, tx -> tx.get("refunds").get(0).get("status").asInt() == 1);
        assertEquals(BigInteger.valueOf(30_000_000), Anvil.tokenBalance(Anvil.CUSTOMER).subtract(tokensBefore));
    }

    private static String paidOnSandbox(String usd) {
        JsonNode created = create("BTC", "bitcoin", usd);
        String id = created.get("transactionId").asText();
        sandboxTransfer(created.get("address").asText(), created.get("assetAmount").asText());
        await(id, tx -> tx.get("status").asInt() == 1);
        return id;
    }

    private static JsonNode create(String asset, String network, String usd) {
        return tree(asApiKey().contentType(ContentType.JSON)
                .body("{\"amount\":" + usd + ",\"amountCurrency\":\"USD\",\"asset\":\"" + asset + "\",\"network\":\""
                        + network + "\"}")
                .when().post("/transaction").then().statusCode(201).extract().asString());
    }

    private static void sandboxTransfer(String to, String amount) {
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"bitcoin\",\"asset\":\"BTC\",\"toAddress\":\"" + to + "\",\"amount\":\"" + amount
                        + "\",\"confirmations\":1}")
                .when().post("/sandbox/chain/transfers").then().statusCode(201);
    }

    private static Response refund(String id, String body, String idempotencyKey) {
        RequestSpecification request = asApiKey().contentType(ContentType.JSON).body(body);
        if (idempotencyKey != null) {
            request = request.header("Idempotency-Key", idempotencyKey);
        }
        return request.when().post("/account/" + account.accountId() + "/transaction/" + id + "/refund");
    }

    /** PATCH /operator/refunds/{refundID} with the operator's token. */
    private static ValidatableResponse operatorMove(String operator, String refundId, String body) {
        return given().auth().oauth2(operator).contentType(ContentType.JSON).body(body)
                .when().patch("/operator/refunds/" + refundId).then();
    }

    private static RequestSpecification asApiKey() {
        return given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant);
    }

    /** Polls Get Transaction through the gateway until {@code condition} holds (30 s at most). */
    private static JsonNode await(String id, Predicate<JsonNode> condition) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        JsonNode tx = null;
        while (Instant.now().isBefore(deadline)) {
            Response response = asApiKey().when().get("/transaction/" + id);
            if (response.statusCode() == 200) {
                tx = tree(response.asString());
                if (condition.test(tx)) {
                    return tx;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("condition not reached within 30 s; last state: "
                + (tx == null ? "none" : tx.toPrettyString()));
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }
}
