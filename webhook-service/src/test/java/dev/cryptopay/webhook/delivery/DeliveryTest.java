package dev.cryptopay.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.Topics;
import dev.cryptopay.webhook.testing.Api;
import dev.cryptopay.webhook.testing.Await;
import dev.cryptopay.webhook.testing.Events;
import dev.cryptopay.webhook.testing.Receiver;
import dev.cryptopay.webhook.testing.StandardWebhooksVerifier;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Events on the real test broker reach the right webhooks, once, signed, with the data intact. */
@QuarkusTest
class DeliveryTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Events events;

    @Inject
    EntityManager em;

    @BeforeAll
    static void open() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        events = new Events();
    }

    @AfterAll
    static void close() {
        events.close();
    }

    private long deliveryRows(String eventId) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em
                .createNativeQuery("select count(*) from delivery where event_id = ?1")
                .setParameter(1, eventId).getSingleResult()).longValue());
    }

    /** Publishes a trailing event with the same key and waits for it: everything before it on that partition is done. */
    private void drain(UUID account, Receiver marker, String key, String topic) {
        String id = UUID.randomUUID().toString();
        events.send(topic, key, Events.cloudEvent(id, "transaction.created", key,
                Events.transactionData(account, key, Map.of())));
        Await.until(WAIT, () -> !marker.requestsFor(id).isEmpty(), () -> "marker event " + id);
    }

    @Test
    void aTransactionEventReachesExactlyTheSubscribedEnabledWebhooksOfItsAccountOnce() throws Exception {
        UUID account = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        try (Receiver subscribed = Receiver.answering(200);
                Receiver wildcard = Receiver.answering(204);
                Receiver unsubscribed = Receiver.answering(200);
                Receiver disabled = Receiver.answering(200);
                Receiver otherAccount = Receiver.answering(200)) {
            JsonPath hook = Api.createWebhook(account, "success", subscribed.url(),
                    List.of("transaction.success", "transaction.created"));
            Api.createWebhook(account, "all", wildcard.url(), List.of("*"));
            Api.createWebhook(account, "refunds", unsubscribed.url(), List.of("refund.created"));
            String off = Api.createWebhook(account, "off", disabled.url(), List.of("transaction.success"))
                    .getString("uuid");
            Api.setStatus(account, off, -1);
            Api.createWebhook(other, "other", otherAccount.url(), List.of("*"));

            String tx = UUID.randomUUID().toString();
            String eventId = UUID.randomUUID().toString();
            String record = Events.cloudEvent(eventId, "transaction.success", tx,
                    Events.transactionData(account, tx, Map.of("referenceNumber", "order-42")));
            events.send(Topics.TRANSACTIONS, tx, record);
            events.send(Topics.TRANSACTIONS, tx, record); // Kafka may deliver twice: the webhook must not see it twice
            // deliveries of one endpoint may overtake each other, so the marker alone does not prove the event
            // arrived: wait for it too, then count after the marker (a duplicate would have come by then)
            Await.until(WAIT, () -> !subscribed.requestsFor(eventId).isEmpty(), () -> "subscribed receiver");
            drain(account, subscribed, tx, Topics.TRANSACTIONS);
            Await.until(WAIT, () -> wildcard.requestsFor(eventId).size() == 1, () -> "wildcard receiver");

            List<Receiver.Request> got = subscribed.requestsFor(eventId);
            assertEquals(1, got.size(), "delivered once");
            Receiver.Request request = got.get(0);
            assertTrue(StandardWebhooksVerifier.verify(hook.getString("signingKey"), request), "signature verifies");
            assertEquals("application/json", request.contentType());
            assertTrue(Math.abs(Long.parseLong(request.timestamp()) - Instant.now().getEpochSecond()) < 60);
            JsonNode body = JSON.readTree(request.body());
            assertEquals(List.of("id", "type", "createdAt", "data"), fieldNames(body));
            assertEquals(eventId, body.get("id").asText());
            assertEquals("transaction.success", body.get("type").asText());
            assertNotNull(OffsetDateTime.parse(body.get("createdAt").asText()));
            assertEquals(tx, body.at("/data/transactionID").asText());
            assertEquals(account.toString(), body.at("/data/accountID").asText());
            assertEquals("order-42", body.at("/data/referenceNumber").asText());
            // exact decimals, scale included, as the producer wrote them
            assertTrue(request.body().contains("\"totalLocal\":10.10"), request.body());
            assertTrue(request.body().contains("\"totalUSD\":10.9787000000000000001"), request.body());

            assertEquals(2, deliveryRows(eventId), "one delivery each for the subscribed and the * webhook");
            assertEquals(0, unsubscribed.requests().size());
            assertEquals(0, disabled.requests().size());
            assertEquals(0, otherAccount.requests().size());

            Await.until(WAIT, () -> Api.deliveries(account, hook.getString("uuid")).getList("deliveries").size() == 2,
                    () -> "two attempts logged (event and marker)");
            JsonPath log = Api.deliveries(account, hook.getString("uuid"));
            Map<String, Object> entry = log.getMap("deliveries.find { it.eventId == '" + eventId + "' }");
            assertEquals("transaction.success", entry.get("eventType"));
            assertEquals(1, entry.get("attempt"));
            assertEquals(200, entry.get("httpStatus"));
            assertEquals(true, entry.get("succeeded"));
            assertEquals("delivered", entry.get("deliveryStatus"));
        }
    }

    @Test
    void subscriptionAndRefundEventsFindTheirAccountAndUnusableRecordsAreSkipped() throws Exception {
        UUID account = UUID.randomUUID();
        try (Receiver receiver = Receiver.answering(200)) {
            Api.createWebhook(account, "billing", receiver.url(),
                    List.of("subscription.created", "refund.completed", "transaction.created"));
            String subscription = UUID.randomUUID().toString();
            String subEvent = UUID.randomUUID().toString();
            events.send(Topics.SUBSCRIPTIONS, subscription, Events.cloudEvent(subEvent, "subscription.created",
                    subscription, "{\"id\":\"" + subscription + "\",\"accountId\":\"" + account
                            + "\",\"status\":\"CREATED\",\"amount\":\"19.990\"}"));
            String refundEvent = UUID.randomUUID().toString();
            events.send(Topics.REFUNDS, "r1", Events.cloudEvent(refundEvent, "refund.completed", "r1",
                    "{\"refundID\":\"r1\",\"accountID\":\"" + account + "\",\"cryptoAmount\":0.00012300}"));
            String tx = UUID.randomUUID().toString();
            events.send(Topics.TRANSACTIONS, tx, "not json at all");
            events.send(Topics.TRANSACTIONS, tx, "{\"id\":\"x\",\"specversion\":\"0.3\",\"type\":\"transaction.created\"}");
            events.send(Topics.TRANSACTIONS, tx, Events.cloudEvent(UUID.randomUUID().toString(), "key.updated", tx,
                    "{\"accountID\":\"" + account + "\"}"));
            drain(account, receiver, tx, Topics.TRANSACTIONS);

            Await.until(WAIT, () -> receiver.requestsFor(subEvent).size() == 1
                    && receiver.requestsFor(refundEvent).size() == 1, () -> "subscription and refund events");
            assertTrue(receiver.requestsFor(subEvent).get(0).body().contains("\"amount\":\"19.990\""));
            assertTrue(receiver.requestsFor(refundEvent).get(0).body().contains("\"cryptoAmount\":0.00012300"));
            assertEquals(3, receiver.requests().size(), "nothing for the unusable records");
        }
    }

    @Test
    void aReceiverThatNeverAnswersDoesNotHoldUpAnotherOne() throws Exception {
        UUID account = UUID.randomUUID();
        try (Receiver dead = Receiver.hanging(); Receiver live = Receiver.answering(200)) {
            String deadHook = Api.createWebhook(account, "dead", dead.url(), List.of("*")).getString("uuid");
            Api.createWebhook(account, "live", live.url(), List.of("*"));
            List<String> ids = new java.util.ArrayList<>();
            for (int i = 0; i < 30; i++) {
                ids.add(events.transaction(account, "transaction.created"));
            }
            // 30 events to a receiver that never answers (1 s timeout each, 4 at a time) would take 8 s in line;
            // the live receiver gets all of them long before that.
            long start = System.currentTimeMillis();
            Await.until(Duration.ofSeconds(6), () -> ids.stream().allMatch(id -> live.requestsFor(id).size() >= 1),
                    () -> "live receiver got " + live.requests().size() + " of 30");
            assertTrue(System.currentTimeMillis() - start < 6000);
            assertTrue(dead.maxConcurrent() <= 4, "per-endpoint limit held: " + dead.maxConcurrent());
            Api.setStatus(account, deadHook, -1);
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
