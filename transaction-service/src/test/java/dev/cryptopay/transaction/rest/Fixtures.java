package dev.cryptopay.transaction.rest;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.testing.TestTokens;
import dev.cryptopay.transaction.messaging.MerchantViewConsumer;
import dev.cryptopay.transaction.service.TestConfigurations;
import io.quarkus.arc.Arc;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.restassured.RestAssured;
import io.restassured.config.JsonConfig;
import io.restassured.http.ContentType;
import io.restassured.path.json.config.JsonPathConfig;
import io.restassured.specification.RequestSpecification;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Test set-up for this module: merchants fed into the merchant view exactly as the Kafka consumer applies
 * them, and the identity tokens the gateway would mint for each kind of key.
 */
final class Fixtures {

    /** Reads decimals exactly as sent (100.00 stays 100.00). */
    static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private Fixtures() {
    }

    /** REST Assured logs failing exchanges and reads decimals as BigDecimal. */
    static void configureRestAssured() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        RestAssured.config = RestAssured.config().jsonConfig(
                JsonConfig.jsonConfig().numberReturnType(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    /** A merchant as merchant-service would publish it, applied to the view; returns its configuration. */
    static MerchantConfiguration merchant(UnaryOperator<TestConfigurations.Builder> changes) {
        MerchantConfiguration config = TestConfigurations.merchant(changes);
        publish(config);
        return config;
    }

    static boolean publish(MerchantConfiguration config) {
        ObjectMapper mapper = Arc.container().instance(ObjectMapper.class).get();
        MerchantViewConsumer consumer = Arc.container().instance(MerchantViewConsumer.class).get();
        CloudEvent event = CloudEvent.of("/merchant-service", EventTypes.MERCHANT_UPDATED, config.merchantId(),
                mapper.valueToTree(config));
        return QuarkusTransaction.requiringNew().call(() -> consumer.apply(event.toJson()));
    }

    /** A publishable key scoped to {@code merchant} (or account-wide when null), optionally pk_…:{@code sub}. */
    static RequestSpecification publishable(UUID account, String merchant, String sub) {
        var claims = TestTokens.claims("pk-" + UUID.randomUUID(), "publishable", IdentityClaims.ROLE_PUBLISHABLE,
                account);
        if (merchant != null) {
            claims.claim(IdentityClaims.MERCHANT, merchant);
        }
        if (sub != null) {
            claims.claim(IdentityClaims.MERCHANT_REF, sub);
        }
        return given().auth().oauth2(claims.sign(TestTokens.key()));
    }

    static RequestSpecification publishable(MerchantConfiguration merchant) {
        return publishable(UUID.fromString(merchant.accountId()), merchant.merchantId(), null);
    }

    /** An API key of {@code role} with X-MID {@code mid} (the gateway passes X-MID as mid_ref). */
    static RequestSpecification apiKey(UUID account, String role, String mid) {
        var claims = TestTokens.claims("ak-" + UUID.randomUUID(), "api", role, account);
        if (mid != null) {
            claims.claim(IdentityClaims.MERCHANT_REF, mid);
        }
        return given().auth().oauth2(claims.sign(TestTokens.key()));
    }

    /** An API key with X-MID as today's gateway forwards it: resolved ({@code mid}) and as written ({@code mid_ref}). */
    static RequestSpecification apiKeyResolved(UUID account, String merchantId, String written) {
        var claims = TestTokens.claims("ak-" + UUID.randomUUID(), "api", IdentityClaims.ROLE_ADMIN, account)
                .claim(IdentityClaims.MERCHANT, merchantId).claim(IdentityClaims.MERCHANT_REF, written);
        return given().auth().oauth2(claims.sign(TestTokens.key()));
    }

    static RequestSpecification apiKey(MerchantConfiguration merchant) {
        return apiKey(UUID.fromString(merchant.accountId()), IdentityClaims.ROLE_ADMIN, merchant.merchantId());
    }

    static String body(String amount, String currency, String asset, String network) {
        return "{\"amount\":" + amount + ",\"amountCurrency\":\"" + currency + "\",\"asset\":\"" + asset
                + "\",\"network\":\"" + network + "\"}";
    }

    /** Creates a transaction and answers the creation result as a tree. */
    static JsonNode create(RequestSpecification as, String body) {
        return tree(as.contentType(ContentType.JSON).body(body).when().post("/transaction")
                .then().statusCode(201).extract().asString());
    }

    /** A transaction of {@code usd} USD in BTC, paid in full and confirmed (3 blocks: every merchant here needs ≤ 3). */
    static String paid(MerchantConfiguration m, String usd) {
        JsonNode created = create(apiKey(m), body(usd, "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), created.get("assetAmount").asText(), 3);
        await(m, id, tx -> tx.get("status").asInt() == 1);
        return id;
    }

    static JsonNode get(RequestSpecification as, String transactionId) {
        return tree(as.when().get("/transaction/" + transactionId).then().statusCode(200).extract().asString());
    }

    static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sets one rate through the operator endpoint. */
    static void rate(String code, String usd, String asOf) {
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"" + code + "\",\"usd\":\"" + usd + "\""
                        + (asOf == null ? "" : ",\"asOf\":\"" + asOf + "\"") + "}]}")
                .when().put("/operator/rates").then().statusCode(200);
    }

    /** A transfer on the sandbox chain, as a customer's wallet would send it. */
    static JsonNode transfer(MerchantConfiguration m, String network, String asset, String to, String amount,
            int confirmations) {
        return Fixtures.tree(apiKey(m).contentType(ContentType.JSON)
                .body("{\"network\":\"" + network + "\",\"asset\":\"" + asset + "\",\"toAddress\":\"" + to
                        + "\",\"amount\":\"" + amount + "\",\"confirmations\":" + confirmations + "}")
                .when().post("/sandbox/chain/transfers").then().statusCode(201).extract().asString());
    }

    static JsonNode mine(MerchantConfiguration m, String network, int count) {
        return Fixtures.tree(apiKey(m).contentType(ContentType.JSON)
                .body("{\"network\":\"" + network + "\",\"count\":" + count + "}")
                .when().post("/sandbox/chain/blocks").then().statusCode(200).extract().asString());
    }

    /**
     * Get Transaction until {@code condition} holds, 30 s at most: one wait may span several scheduler-driven passes
     * (watcher, expiry, refund payouts) on a loaded machine, and the ceiling costs nothing when the condition holds.
     */
    static JsonNode await(MerchantConfiguration m, String id, Predicate<JsonNode> condition) {
        Duration timeout = Duration.ofSeconds(30);
        Instant deadline = Instant.now().plus(timeout);
        JsonNode tx = Fixtures.get(apiKey(m), id);
        while (!condition.test(tx)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("condition not reached within " + timeout.toSeconds() + " s; last state: "
                        + tx.toPrettyString());
            }
            pause();
            tx = Fixtures.get(apiKey(m), id);
        }
        return tx;
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
