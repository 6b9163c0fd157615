package dev.cryptopay.subscription.testing;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.subscription.messaging.MerchantViewConsumer;
import dev.cryptopay.subscription.messaging.TransactionEventConsumer;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.arc.Arc;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** Test data: merchants in the view (as merchant-service would publish them), plans, subscriptions, transaction events. */
public final class Fixtures {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicLong VERSION = new AtomicLong(1);

    private Fixtures() {
    }

    /** An enabled merchant of {@code account} accepting BTC on bitcoin and USDC on polygon; both e-mail switches on. */
    public static UUID merchant(UUID account) {
        return merchant(account, MerchantConfiguration.ENABLED, true, true);
    }

    public static UUID merchant(UUID account, int status, Boolean emailCustomer, Boolean emailMerchant) {
        return merchant(account, status, "owner@shop.example", emailCustomer, emailMerchant);
    }

    public static UUID merchant(UUID account, int status, String accountEmail, Boolean emailCustomer,
            Boolean emailMerchant) {
        UUID id = UUID.randomUUID();
        publishMerchant(id, account, status, accountEmail, emailCustomer, emailMerchant);
        return id;
    }

    public static void publishMerchant(UUID id, UUID account, int status, String accountEmail, Boolean emailCustomer,
            Boolean emailMerchant) {
        AssetNetworkConfig one = new AssetNetworkConfig(1, 1, 900);
        MerchantConfiguration config = new MerchantConfiguration(id.toString(), account.toString(), null, "Corner Shop",
                "Corner Shop Ltd", "CORNER", "DE", "BE", status, false, List.of("BTC", "USDC"), List.of(),
                Map.of("bitcoin", Map.of("BTC", one), "polygon", Map.of("USDC", one)), null, false, null, null,
                Map.of(), Map.of(), 24, false, null, null, Map.of(), Map.of(), null, null, null,
                VERSION.incrementAndGet(), "2025-01-01T00:00:00Z", accountEmail, emailCustomer, emailMerchant);
        String value = CloudEvent.of("/merchant-service", EventTypes.MERCHANT_UPDATED, id.toString(),
                JSON.valueToTree(config)).toJson();
        MerchantViewConsumer consumer = Arc.container().instance(MerchantViewConsumer.class).get();
        QuarkusTransaction.requiringNew().run(() -> consumer.apply(value));
    }

    public static String admin(UUID account) {
        return TestTokens.admin(account);
    }

    public static JsonPath plan(UUID account, UUID merchant, String amount, String interval) {
        String body = "{\"accountId\":\"" + account + "\"," + (merchant == null ? "" : "\"merchantId\":\"" + merchant
                + "\",") + "\"planName\":\"Gold\",\"description\":\"Monthly gold\",\"amount\":\"" + amount
                + "\",\"billingInterval\":\"" + interval + "\"}";
        return given().auth().oauth2(admin(account)).contentType(ContentType.JSON).body(body)
                .when().post("/subscriptionplans").then().statusCode(201).extract().jsonPath();
    }

    public static String subscriptionBody(String planId, String email, String asset, String network,
            String interval) {
        return "{\"planId\":\"" + planId + "\",\"customerEmail\":\"" + email + "\",\"walletAddress\":\"tb1qcustomer\","
                + "\"asset\":\"" + asset + "\",\"network\":\"" + network + "\",\"billingInterval\":\"" + interval + "\"}";
    }

    public static JsonPath subscription(UUID account, String planId, String email) {
        return given().auth().oauth2(admin(account)).contentType(ContentType.JSON)
                .body(subscriptionBody(planId, email, "USDC", "polygon", "MONTHLY"))
                .when().post("/subscriptions").then().statusCode(201).extract().jsonPath();
    }

    /** A payment event of transaction {@code attemptId} as transaction-service publishes it (the fields used here). */
    public static String transactionEvent(String type, String attemptId, long version, int status, int paymentStatus,
            String totalUSD, String receivedUSD, String address, String expectedCrypto, String txnHash) {
        JsonNodeFactory f = JsonNodeFactory.withExactBigDecimals(true);
        ObjectNode tx = f.objectNode();
        tx.put("transactionID", attemptId);
        tx.put("status", status);
        tx.put("paymentStatus", paymentStatus);
        tx.put("version", version);
        ObjectNode amounts = tx.putObject("amounts");
        amounts.put("currency", "USD");
        amounts.put("totalUSD", new BigDecimal(totalUSD));
        amounts.put("receivedUSD", new BigDecimal(receivedUSD));
        amounts.put("fxRateToUSD", BigDecimal.ONE);
        ArrayNode payments = tx.putArray("payments");
        ObjectNode payment = payments.addObject();
        payment.put("address", address);
        payment.put("expectedCrypto", new BigDecimal(expectedCrypto));
        payment.put("txnHash", txnHash);
        return CloudEvent.of("/transaction-service", type, attemptId, tx).toJson();
    }

    /** Feeds one record value to the transaction-event consumer, as Kafka would. */
    public static boolean deliverTransactionEvent(String value) {
        return deliverTransactionEvents(List.of(value)) > 0;
    }

    /** Feeds one poll's record values to the transaction-event consumer, as Kafka would; how many were applied. */
    public static int deliverTransactionEvents(List<String> values) {
        TransactionEventConsumer consumer = Arc.container().instance(TransactionEventConsumer.class).get();
        return QuarkusTransaction.requiringNew().call(() -> consumer.applyAll(values));
    }
}
