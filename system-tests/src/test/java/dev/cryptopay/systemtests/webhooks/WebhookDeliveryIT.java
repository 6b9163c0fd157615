package dev.cryptopay.systemtests.webhooks;

import static dev.cryptopay.systemtests.webhooks.WebhookFixtures.awaitTrue;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Webhooks across the running suite: created through the gateway with an API key, fed by transaction events on
 * the real Kafka broker. To control ids, duplicates and timing, these tests produce the CloudEvents themselves (see
 * WebhookFixtures); WebhookSandboxChainIT covers the whole way from a payment on the sandbox chain.
 * webhook-service runs with a short retry schedule here (Suite: 1 s, 2 s, ...).
 */
class WebhookDeliveryIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Suite suite;
    private static KafkaProducer<String, String> producer;

    @BeforeAll
    static void startSuite() {
        suite = Suite.throughGateway();
        producer = WebhookFixtures.producer();
    }

    @AfterAll
    static void closeProducer() {
        producer.close();
    }

    private static void publish(String key, String value) throws Exception {
        producer.send(new ProducerRecord<>(Topics.TRANSACTIONS, key, value)).get();
    }

    @Test
    void aTransactionEventReachesOnlyTheSubscribedEnabledWebhookOfItsAccountOnceSigned() throws Exception {
        Account shop = WebhookFixtures.newAccount(suite, "Webhook Shop");
        Account other = WebhookFixtures.newAccount(suite, "Other Shop");
        try (WebhookReceiver subscribed = WebhookReceiver.answering(200);
                WebhookReceiver unsubscribed = WebhookReceiver.answering(200);
                WebhookReceiver disabled = WebhookReceiver.answering(200);
                WebhookReceiver otherAccount = WebhookReceiver.answering(200)) {
            JsonPath hook = WebhookFixtures.createWebhook(shop, "orders", subscribed.url(),
                    List.of("transaction.success"));
            WebhookFixtures.createWebhook(shop, "refunds only", unsubscribed.url(), List.of("refund.completed"));
            String off = WebhookFixtures.createWebhook(shop, "paused", disabled.url(), List.of("transaction.success"))
                    .getString("uuid");
            WebhookFixtures.setStatus(shop, off, -1);
            WebhookFixtures.createWebhook(other, "everything", otherAccount.url(), List.of("*"));

            String transactionId = UUID.randomUUID().toString();
            String eventId = UUID.randomUUID().toString();
            String event = WebhookFixtures.transactionEvent(eventId, "transaction.success", transactionId, shop.id());
            publish(transactionId, event);
            publish(transactionId, event); // a redelivered record must not reach the receiver twice
            // a later event of the same transaction (same partition): once both attempts are logged, the two records
            // above were processed (a delivery may overtake another of the same endpoint, so arrival alone does not
            // say that; an attempt is logged only once the receiver answered)
            String later = UUID.randomUUID().toString();
            publish(transactionId, WebhookFixtures.transactionEvent(later, "transaction.success", transactionId,
                    shop.id()));
            awaitTrue(WAIT, () -> !subscribed.requestsFor(later).isEmpty(), "the later event delivered");
            awaitTrue(WAIT, () -> WebhookFixtures.deliveries(shop, hook.getString("uuid"))
                    .getInt("metadata.totalCount") == 2, "both attempts logged");

            List<WebhookReceiver.Request> got = subscribed.requestsFor(eventId);
            assertEquals(1, got.size(), "delivered exactly once");
            WebhookReceiver.Request request = got.get(0);
            assertTrue(WebhookFixtures.signatureValid(hook.getString("signingKey"), request), "signature verifies");
            JsonNode body = JSON.readTree(request.body());
            assertEquals(eventId, body.get("id").asText());
            assertEquals("transaction.success", body.get("type").asText());
            assertEquals(transactionId, body.at("/data/transactionID").asText());
            assertEquals(shop.id(), body.at("/data/accountID").asText());
            assertTrue(request.body().contains("\"totalLocal\":25.50"), "amounts pass unchanged: " + request.body());
            assertTrue(request.body().contains("\"totalUSD\":27.71850"), request.body());

            // the delivery rows were written in the same transaction for every webhook the event concerned
            assertEquals(1, WebhookFixtures.count("select count(*) from delivery where event_id = ?", eventId));
            assertEquals(0, unsubscribed.requests().size());
            assertEquals(0, disabled.requests().size());
            assertEquals(0, otherAccount.requests().size());

            JsonPath log = WebhookFixtures.deliveries(shop, hook.getString("uuid"));
            // both events are dispatched concurrently, so either may be attempted first (newest-first order
            // itself is covered by DeliveryLogPaginationTest)
            assertEquals(java.util.Set.of(later, eventId), java.util.Set.copyOf(log.getList("deliveries.eventId")));
            assertEquals(List.of(200, 200), log.getList("deliveries.httpStatus"));
            assertEquals(List.of("delivered", "delivered"), log.getList("deliveries.deliveryStatus"));
        }
    }

    @Test
    void creatingAWebhookHonoursIdempotencyKeyThroughTheGateway() {
        Account shop = WebhookFixtures.newAccount(suite, "Idempotent Shop");
        String body = "{\"name\":\"orders\",\"url\":\"https://hooks.example/orders\",\"events\":[\"*\"]}";
        String key = "create-webhook-" + UUID.randomUUID();
        String first = given().header("X-Api-Key", shop.apiKey()).header("Idempotency-Key", key)
                .contentType("application/json").body(body)
                .when().post("/accounts/" + shop.id() + "/webhooks")
                .then().statusCode(201).extract().path("uuid");
        given().header("X-Api-Key", shop.apiKey()).header("Idempotency-Key", key)
                .contentType("application/json").body(body)
                .when().post("/accounts/" + shop.id() + "/webhooks")
                .then().statusCode(201).header("Idempotent-Replayed", "true").body("uuid", equalTo(first));
        given().header("X-Api-Key", shop.apiKey()).header("Idempotency-Key", key)
                .contentType("application/json").body(body.replace("orders", "other"))
                .when().post("/accounts/" + shop.id() + "/webhooks")
                .then().statusCode(422).contentType("application/problem+json");
        given().header("X-Api-Key", shop.apiKey()).when().get("/accounts/" + shop.id() + "/webhooks")
                .then().statusCode(200).body("webhooks.size()", equalTo(1));
    }

    @Test
    void aReceiverFailingTwiceGetsThreeAttemptsOnTheScheduleAllInTheLog() throws Exception {
        Account shop = WebhookFixtures.newAccount(suite, "Flaky Shop");
        try (WebhookReceiver flaky = WebhookReceiver.scripted(200, 500, 500)) {
            JsonPath hook = WebhookFixtures.createWebhook(shop, "flaky", flaky.url(), List.of("*"));
            String transactionId = UUID.randomUUID().toString();
            String eventId = UUID.randomUUID().toString();
            publish(transactionId, WebhookFixtures.transactionEvent(eventId, "transaction.success", transactionId,
                    shop.id()));

            awaitTrue(WAIT, () -> "delivered".equals(WebhookFixtures.deliveries(shop, hook.getString("uuid"))
                    .getString("deliveries[0].deliveryStatus")), "delivered after the retries");
            List<WebhookReceiver.Request> got = flaky.requestsFor(eventId);
            assertEquals(3, got.size(), "three attempts, all with the same webhook-id");
            got.forEach(r -> assertTrue(WebhookFixtures.signatureValid(hook.getString("signingKey"), r)));
            long firstGap = got.get(1).receivedAtMillis() - got.get(0).receivedAtMillis();
            long secondGap = got.get(2).receivedAtMillis() - got.get(1).receivedAtMillis();
            assertTrue(firstGap >= 990 && secondGap >= 1990, "waits of 1 s and 2 s: " + firstGap + ", " + secondGap);

            JsonPath log = WebhookFixtures.deliveries(shop, hook.getString("uuid"));
            assertEquals(3, log.getInt("metadata.totalCount"));
            assertEquals(List.of(3, 2, 1), log.getList("deliveries.attempt"));
            assertEquals(List.of(200, 500, 500), log.getList("deliveries.httpStatus"));
            assertEquals(List.of(true, false, false), log.getList("deliveries.succeeded"));
            assertEquals(List.of(eventId, eventId, eventId), log.getList("deliveries.eventId"));
            assertEquals(List.of("transaction.success"), log.getList("deliveries.eventType").stream().distinct().toList());
        }
    }

    @Test
    void redeliverySendsTheSameMessageAgainWithTheSameWebhookId() throws Exception {
        Account shop = WebhookFixtures.newAccount(suite, "Redelivery Shop");
        try (WebhookReceiver receiver = WebhookReceiver.answering(204)) {
            JsonPath hook = WebhookFixtures.createWebhook(shop, "orders", receiver.url(), List.of("transaction.success"));
            String webhook = hook.getString("uuid");
            String transactionId = UUID.randomUUID().toString();
            String eventId = UUID.randomUUID().toString();
            publish(transactionId, WebhookFixtures.transactionEvent(eventId, "transaction.success", transactionId,
                    shop.id()));
            awaitTrue(WAIT, () -> WebhookFixtures.deliveries(shop, webhook).getInt("metadata.totalCount") == 1,
                    "first attempt logged");
            String deliveryId = WebhookFixtures.deliveries(shop, webhook).getString("deliveries[0].deliveryId");

            given().header("X-Api-Key", shop.apiKey())
                    .when().post("/accounts/" + shop.id() + "/webhooks/" + webhook + "/deliveries/" + deliveryId
                            + "/redeliver")
                    .then().statusCode(202)
                    .body("deliveryId", equalTo(deliveryId))
                    .body("eventId", equalTo(eventId));
            awaitTrue(WAIT, () -> receiver.requestsFor(eventId).size() == 2, "the redelivery arrives");
            List<WebhookReceiver.Request> got = receiver.requestsFor(eventId);
            assertEquals(got.get(0).body(), got.get(1).body());
            assertTrue(WebhookFixtures.signatureValid(hook.getString("signingKey"), got.get(1)));
            awaitTrue(WAIT, () -> WebhookFixtures.deliveries(shop, webhook).getInt("metadata.totalCount") == 2,
                    "the redelivery logged");
            assertEquals(List.of(2, 1), WebhookFixtures.deliveries(shop, webhook).getList("deliveries.attempt"));

            // a read-only key may read the log but not redeliver
            String readOnly = given().header("X-Api-Key", shop.apiKey()).contentType("application/json")
                    .body("{\"keyType\":\"api\",\"name\":\"viewer\",\"role\":\"read_only\"}")
                    .when().post("/accounts/" + shop.id() + "/keys")
                    .then().statusCode(201).extract().path("generatedKey");
            awaitTrue(WAIT, () -> given().header("X-Api-Key", readOnly)
                    .get("/accounts/" + shop.id() + "/webhooks/" + webhook + "/deliveries").statusCode() == 200,
                    "the read-only key reads the log");
            given().header("X-Api-Key", readOnly)
                    .when().post("/accounts/" + shop.id() + "/webhooks/" + webhook + "/deliveries/" + deliveryId
                            + "/redeliver")
                    .then().statusCode(403).contentType("application/problem+json");
        }
    }
}
