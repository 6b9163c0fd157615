package dev.cryptopay.systemtests.transactions;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A transaction's life through the gateway on the running suite: account, merchant and publishable key made
 * with the real merchant-service endpoints, then create, read, payment request, QR, verification, list and
 * cancel; and the {@code transaction.created} event on Kafka carrying the full Transaction.
 */
class TransactionLifecycleIT {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();
    private static final byte[] PNG_SIGNATURE = { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A };

    private static Suite suite;

    @BeforeAll
    static void startSuite() {
        suite = Suite.throughGateway();
    }

    @Test
    void createReadPayQrListCancelThroughTheGateway() throws Exception {
        Account account = newAccount("Lifecycle Ltd");
        String merchant = newMerchant(account, "{\"name\":\"Corner Shop\",\"address1\":\"1 Main St\",\"city\":\"Berlin\","
                + "\"region\":\"BE\",\"country\":\"DE\",\"externalMID\":\"corner-1\"}");
        String publishable = newPublishableKey(account, merchant);
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"EUR\",\"usd\":\"1.10\"},{\"code\":\"BTC\",\"usd\":\"50000\"},"
                        + "{\"code\":\"USDC\",\"usd\":\"1\"}]}")
                .when().put("/operator/rates").then().statusCode(200);

        // the new key reaches the gateway and the new merchant reaches transaction-service through Kafka
        String order = "order-" + UUID.randomUUID();
        JsonPath created = awaitCreated(() -> given().header("X-Publishable-Key", publishable)
                .contentType(ContentType.JSON)
                .body("{\"amount\":55.00,\"amountCurrency\":\"EUR\",\"asset\":\"BTC\",\"network\":\"bitcoin\","
                        + "\"referenceNumber\":\"" + order + "\"}")
                .when().post("/transaction"));
        String id = created.getString("transactionId");
        assertEquals(0, created.getInt("status"));
        assertEquals("0.00121000", created.getString("assetAmount"));
        assertTrue(created.getString("address").startsWith("tb1q"));
        assertEquals("bitcoin:" + created.getString("address") + "?amount=0.00121", created.getString("qrData"));

        JsonNode afterCreation = tree(given().header("X-Publishable-Key", publishable)
                .when().get("/transaction/" + id).then().statusCode(200).extract().asString());
        assertEquals(account.id(), afterCreation.get("accountID").asText());
        assertEquals(merchant, afterCreation.get("merchantID").asText());
        assertEquals("corner-1", afterCreation.get("externalMID").asText());
        assertEquals("60.50", afterCreation.get("amounts").get("totalUSD").decimalValue().toPlainString());

        // the publishable key gets the customer's view: no personal data, no compliance logs (docs/decisions.md §11)
        assertTrue(afterCreation.at("/compliance/resolutionLogs").isNull());
        assertTrue(afterCreation.at("/compliance/kycDetails").isNull());
        // the API key with X-MID (here the externalMID) reads the same transaction, compliance logs included
        JsonNode viaApiKey = tree(given().header("X-Api-Key", account.apiKey()).header("X-MID", "corner-1")
                .when().get("/transaction/" + id).then().statusCode(200).extract().asString());
        assertTrue(viaApiKey.at("/compliance/resolutionLogs").isArray());
        JsonNode withoutLogs = viaApiKey.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) withoutLogs.get("compliance"))
                .set("resolutionLogs", com.fasterxml.jackson.databind.node.NullNode.getInstance());
        // heldForReview is null for the publishable key too (no tipping off; docs/decisions.md §59)
        assertTrue(afterCreation.at("/compliance/heldForReview").isNull());
        assertTrue(viaApiKey.at("/compliance/heldForReview").isBoolean());
        ((com.fasterxml.jackson.databind.node.ObjectNode) withoutLogs.get("compliance"))
                .set("heldForReview", com.fasterxml.jackson.databind.node.NullNode.getInstance());
        assertEquals(afterCreation, withoutLogs, "the same transaction apart from the compliance logs");

        JsonPath payment = given().header("X-Publishable-Key", publishable).contentType(ContentType.JSON)
                .body("{\"asset\":\"USDC\",\"network\":\"polygon\"}")
                .when().post("/transaction/" + id + "/payment").then().statusCode(201).extract().jsonPath();
        assertEquals("60.500000", payment.getString("assetAmount"));
        assertTrue(payment.getString("qrData").contains("@80002/transfer?address=" + payment.getString("address")
                + "&uint256=60500000"));

        byte[] png = given().header("X-Publishable-Key", publishable)
                .queryParam("paymentRequestId", payment.getString("paymentRequestId"))
                .when().get("/transaction/" + id + "/qr").then().statusCode(200).contentType("image/png")
                .extract().asByteArray();
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(png, 8));

        JsonPath listed = given().header("X-Api-Key", account.apiKey()).header("X-Account-Id", account.id())
                .queryParam("limit", 10).queryParam("page", 1).queryParam("referenceNumber", order)
                .when().get("/transactions").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(id), listed.getList("transactions.transactionID"));
        assertEquals(1, listed.getInt("metadata.totalCount"));
        assertEquals(2, listed.getList("transactions[0].payments").size());
        given().header("X-Api-Key", account.apiKey()).header("X-Account-Id", account.id())
                .when().get("/transactions").then().statusCode(400).contentType("application/problem+json");

        JsonPath cancelled = given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                .contentType(ContentType.JSON).body("{\"reason\":\"changed my mind\"}")
                .when().patch("/transaction/" + id + "/cancel").then().statusCode(200).extract().jsonPath();
        assertEquals(-2, cancelled.getInt("status"));
        assertEquals("changed my mind", cancelled.getString("cancellationReason"));
        given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant).contentType(ContentType.JSON)
                .body("{}").when().patch("/transaction/" + id + "/cancel")
                .then().statusCode(409).body("code", equalTo("invalid_state"));

        // the transaction.created event carries the full Transaction as GET answered an API key then
        CloudEvent event = awaitEvent(id, "transaction.created");
        assertEquals(id, event.subject());
        assertEquals(viaApiKey, tree(event.data().toString()));
    }

    @Test
    void aSubMerchantKeyAndTheKycVerificationThroughTheGateway() {
        Account account = newAccount("Kyc Ltd");
        String merchant = newMerchant(account, "{\"name\":\"Jeweller\",\"address1\":\"2 High St\",\"city\":\"Paris\","
                + "\"region\":\"IDF\",\"country\":\"FR\",\"externalMID\":\"jeweller\"}");
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"name\":\"Jeweller\",\"address1\":\"2 High St\",\"city\":\"Paris\",\"region\":\"IDF\","
                        + "\"country\":\"FR\",\"kycEnabled\":true,\"kycThreshold\":1000,\"allowedCrypto\":\"BTC,USDC\"}")
                .when().put("/accounts/" + account.id() + "/merchants/" + merchant).then().statusCode(200);
        String accountWide = newPublishableKey(account, null);

        // pk_…:<externalMID> acts for the sub-merchant; wait until the KYC settings arrived
        JsonPath waiting = awaitCreated(() -> given().header("X-Publishable-Key", accountWide + ":jeweller")
                .contentType(ContentType.JSON)
                .body("{\"amount\":2500,\"amountCurrency\":\"USD\",\"asset\":\"USDC\",\"network\":\"base\"}")
                .when().post("/transaction"), result -> result.getInt("status") == -3);
        assertEquals(List.of("firstName", "lastName", "email", "address"), waiting.getList("requiredFields"));
        assertEquals(null, waiting.getString("address"));
        String id = waiting.getString("transactionId");

        given().header("X-Publishable-Key", accountWide + ":jeweller").multiPart("firstName", "Ada")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(400).contentType("application/problem+json");
        JsonPath verified = given().header("X-Publishable-Key", accountWide + ":jeweller")
                .multiPart("documentType", "ID_CARD").multiPart("firstName", "Ada").multiPart("lastName", "Lovelace")
                .multiPart("email", "ada@example.com").multiPart("street", "1 Analytical Row")
                .multiPart("city", "London").multiPart("region", "LND").multiPart("postalCode", "N1 7AA")
                .multiPart("country", "GB")
                .multiPart("documentFiles", "front.png", PNG_SIGNATURE, "image/png")
                .multiPart("documentFiles", "rear.png", PNG_SIGNATURE, "image/png")
                .when().post("/transaction/" + id + "/verification").then().statusCode(200).extract().jsonPath();
        assertEquals(0, verified.getInt("status"));
        assertTrue(verified.getString("address").matches("0x[0-9a-fA-F]{40}"));

        // the gateway resolves X-MID and sub-merchants before the service: an unknown X-MID is its 403
        // (docs/api-conventions.md), an unknown sub-merchant a 401
        given().header("X-Api-Key", account.apiKey()).header("X-MID", "nobody").when().get("/transaction/" + id)
                .then().statusCode(403);
        given().header("X-Publishable-Key", accountWide + ":nobody").when().get("/transaction/" + id)
                .then().statusCode(401);
    }

    private record Account(String id, String apiKey) {
    }

    private static Account newAccount(String name) {
        JsonPath created = given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\",\"email\":\"it@tx.example\"}")
                .when().post("/operator/accounts").then().statusCode(201).extract().jsonPath();
        Account account = new Account(created.getString("accountUUID"), created.getString("apiKey.generatedKey"));
        awaitTrue(() -> given().header("X-Api-Key", account.apiKey()).get("/accounts/" + account.id() + "/keys")
                .statusCode() == 200);
        return account;
    }

    private static String newMerchant(Account account, String body) {
        return given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON).body(body)
                .when().post("/accounts/" + account.id() + "/merchants").then().statusCode(201).extract().path("UUID");
    }

    private static String newPublishableKey(Account account, String merchant) {
        var request = given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"keyType\":\"publishable\",\"name\":\"checkout\"}");
        if (merchant != null) {
            request.queryParam("merchantUUID", merchant);
        }
        return request.when().post("/accounts/" + account.id() + "/keys").then().statusCode(201).extract()
                .path("generatedKey");
    }

    private static JsonPath awaitCreated(Supplier<Response> attempt) {
        return awaitCreated(attempt, result -> true);
    }

    /** Retries a creation until the key and the merchant have travelled through Kafka (and {@code until} holds). */
    private static JsonPath awaitCreated(Supplier<Response> attempt, java.util.function.Predicate<JsonPath> until) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (true) {
            Response response = attempt.get();
            if (response.statusCode() == 201 && until.test(response.jsonPath())) {
                return response.jsonPath();
            }
            assertTrue(Instant.now().isBefore(deadline),
                    "no transaction created within 30 s; last answer " + response.statusCode() + " " + response.asString());
            sleep(200);
        }
    }

    private static CloudEvent awaitEvent(String transactionId, String type) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "it-transactions-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(Topics.TRANSACTIONS));
            Instant deadline = Instant.now().plusSeconds(30);
            while (Instant.now().isBefore(deadline)) {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    if (transactionId.equals(record.key())) {
                        CloudEvent event = CloudEvent.parse(record.value());
                        if (type.equals(event.type())) {
                            return event;
                        }
                    }
                }
            }
        }
        throw new AssertionError(type + " of " + transactionId + " not seen on " + Topics.TRANSACTIONS + " within 30 s");
    }

    private static JsonNode tree(String json) {
        try {
            JsonNode node = JSON.readTree(json);
            assertNotNull(node);
            return node;
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    private static void awaitTrue(Supplier<Boolean> condition) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!condition.get()) {
            assertTrue(Instant.now().isBefore(deadline), "condition not met within 30 s");
            sleep(100);
        }
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
