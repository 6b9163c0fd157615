package dev.cryptopay.systemtests.webhooks;

import static dev.cryptopay.systemtests.webhooks.WebhookFixtures.awaitTrue;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole way, with nothing produced by the test itself: a transaction created through the gateway, paid on the
 * sandbox chain, detected and confirmed by transaction-service, published through its outbox, and delivered by
 * webhook-service to the account's subscribed receiver — once, signed, with the full Transaction; the other
 * receivers get nothing.
 */
class WebhookSandboxChainIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Suite suite;

    @BeforeAll
    static void startSuite() {
        suite = Suite.throughGateway();
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"BTC\",\"usd\":\"50000\"}]}")
                .when().put("/operator/rates").then().statusCode(200);
    }

    @Test
    void aSuccessOnTheSandboxChainReachesTheSubscribedReceiverOnceSignedWithTheFullTransaction() throws Exception {
        Account shop = WebhookFixtures.newAccount(suite, "Chain Shop");
        Account other = WebhookFixtures.newAccount(suite, "Other Chain Shop");
        String merchant = new SandboxAccount(shop.id(), shop.apiKey()).newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        try (WebhookReceiver subscribed = WebhookReceiver.answering(200);
                WebhookReceiver unsubscribed = WebhookReceiver.answering(200);
                WebhookReceiver disabled = WebhookReceiver.answering(200);
                WebhookReceiver otherAccount = WebhookReceiver.answering(200)) {
            JsonPath hook = WebhookFixtures.createWebhook(shop, "paid orders", subscribed.url(),
                    List.of("transaction.success"));
            WebhookFixtures.createWebhook(shop, "refunds only", unsubscribed.url(), List.of("refund.completed"));
            String off = WebhookFixtures.createWebhook(shop, "paused", disabled.url(), List.of("*")).getString("uuid");
            WebhookFixtures.setStatus(shop, off, -1);
            WebhookFixtures.createWebhook(other, "everything", otherAccount.url(), List.of("*"));

            JsonNode created = create(shop, merchant);
            String transactionId = created.get("transactionId").asText();
            // bitcoin needs 1 confirmation by default: the transfer's own block confirms it
            given().header("X-Api-Key", shop.apiKey()).contentType(ContentType.JSON)
                    .body("{\"network\":\"bitcoin\",\"asset\":\"BTC\",\"toAddress\":\""
                            + created.get("address").asText() + "\",\"amount\":\""
                            + created.get("assetAmount").asText() + "\"}")
                    .when().post("/sandbox/chain/transfers").then().statusCode(201);

            awaitTrue(Duration.ofSeconds(30), () -> subscribed.requests().stream()
                    .anyMatch(r -> r.body().contains("\"transaction.success\"")), "transaction.success delivered");
            Thread.sleep(1500); // anything sent twice would arrive meanwhile
            List<WebhookReceiver.Request> got = subscribed.requests();
            assertEquals(1, got.size(), "only transaction.success, exactly once");
            WebhookReceiver.Request request = got.get(0);
            assertTrue(WebhookFixtures.signatureValid(hook.getString("signingKey"), request), "signature verifies");
            JsonNode body = JSON.readTree(request.body());
            assertEquals("transaction.success", body.get("type").asText());
            assertEquals(request.webhookId(), body.get("id").asText());
            JsonNode current = JSON.readTree(given().header("X-Api-Key", shop.apiKey()).header("X-MID", merchant)
                    .when().get("/transaction/" + transactionId).then().statusCode(200).extract().asString());
            assertEquals(current, body.get("data"), "the data is the full Transaction as Get Transaction answers it");
            assertEquals(1, body.at("/data/status").asInt());
            assertEquals(1, body.at("/data/payments/0/status").asInt());

            assertEquals(0, unsubscribed.requests().size());
            assertEquals(0, disabled.requests().size());
            assertEquals(0, otherAccount.requests().size());
        }
    }

    @Test
    void aRefundPaidOutOnTheSandboxChainReachesItsSubscribersSignedWithTheLeg() throws Exception {
        Account shop = WebhookFixtures.newAccount(suite, "Refunding Shop");
        String merchant = new SandboxAccount(shop.id(), shop.apiKey()).newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        try (WebhookReceiver refunds = WebhookReceiver.answering(200)) {
            JsonPath hook = WebhookFixtures.createWebhook(shop, "refunds", refunds.url(),
                    List.of("refund.created", "refund.broadcast", "refund.completed"));
            JsonNode created = create(shop, merchant);
            String transactionId = created.get("transactionId").asText();
            given().header("X-Api-Key", shop.apiKey()).contentType(ContentType.JSON)
                    .body("{\"network\":\"bitcoin\",\"asset\":\"BTC\",\"toAddress\":\""
                            + created.get("address").asText() + "\",\"amount\":\""
                            + created.get("assetAmount").asText() + "\"}")
                    .when().post("/sandbox/chain/transfers").then().statusCode(201);
            awaitTrue(Duration.ofSeconds(30), () -> given().header("X-Api-Key", shop.apiKey())
                    .header("X-MID", merchant).when().get("/transaction/" + transactionId).then().extract()
                    .path("status").equals(1), "the transaction succeeded");
            String refundId = given().header("X-Api-Key", shop.apiKey()).header("X-MID", merchant)
                    .contentType(ContentType.JSON).body("{\"amount\":10,\"gasFeePayer\":\"merchant\"}")
                    .when().post("/account/" + shop.id() + "/transaction/" + transactionId + "/refund")
                    .then().statusCode(201).extract().path("[0].refundID");
            awaitTrue(Duration.ofSeconds(30), () -> refunds.requests().stream()
                    .anyMatch(r -> r.body().contains("\"refund.broadcast\"")), "refund.broadcast delivered");
            given().header("X-Api-Key", shop.apiKey()).contentType(ContentType.JSON)
                    .body("{\"network\":\"bitcoin\",\"count\":1}").when().post("/sandbox/chain/blocks")
                    .then().statusCode(200);
            awaitTrue(Duration.ofSeconds(30), () -> refunds.requests().stream()
                    .anyMatch(r -> r.body().contains("\"refund.completed\"")), "refund.completed delivered");
            for (WebhookReceiver.Request request : refunds.requests()) {
                assertTrue(WebhookFixtures.signatureValid(hook.getString("signingKey"), request), "signature verifies");
                JsonNode body = JSON.readTree(request.body());
                assertEquals(refundId, body.at("/data/refundID").asText());
                assertEquals(transactionId, body.at("/data/transactionID").asText());
            }
        }
    }

    private static JsonNode create(Account shop, String merchant) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (true) {
            Response response = given().header("X-Api-Key", shop.apiKey()).header("X-MID", merchant)
                    .contentType(ContentType.JSON)
                    .body("{\"amount\":42.50,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}")
                    .when().post("/transaction");
            if (response.statusCode() == 201) {
                return JSON.readTree(response.asString());
            }
            assertTrue(Instant.now().isBefore(deadline), "no transaction within 60 s: " + response.asString());
            Thread.sleep(200);
        }
    }
}
