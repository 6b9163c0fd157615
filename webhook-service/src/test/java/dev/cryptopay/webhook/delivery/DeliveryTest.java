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
            // 60 events to a receiver that never answers (%test: 1 s request timeout, 4 in flight per endpoint) take
            // 15 s in line: were the live receiver's deliveries held up behind the dead one's, its last would wait for
            // at least the dead one's 57th attempt, which cannot begin before 14 s after the first. The clock starts
            // before the first event is sent, so that holds however long sending takes; 10 s leaves the real design
            // (send, consume, claim, 60 quick POSTs) room on a loaded machine and a blocked one none.
            int count = 60;
            long start = System.nanoTime();
            List<String> ids = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                ids.add(events.transaction(account, "transaction.created"));
            }
            Await.until(WAIT, () -> ids.stream().allMatch(id -> live.requestsFor(id).size() >= 1),
                    () -> "live receiver got " + live.requests().size() + " of " + count);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            int deadAttempts = dead.requests().size();
            assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "the live receiver had all after " + took);
            // Each dead attempt holds one of the 4 slots for the 1 s timeout: at most 40 began within those 10 s,
            // where a live receiver waiting in line would have had its last event after nearly all 60.
            assertTrue(deadAttempts < count, "the dead receiver had " + deadAttempts + " attempts by then");

            // The per-endpoint limit, from the attempts the dispatcher recorded (the receiver cannot tell: its handlers
            // keep hanging after the dispatcher gave up on them, so it counts every attempt of every 1 s wave).
            Await.until(WAIT, () -> recordedAttempts(deadHook) >= deadAttempts,
                    () -> recordedAttempts(deadHook) + " of " + deadAttempts + " dead attempts recorded");
            int atOnce = mostAttemptsAtOnce(deadHook);
            assertTrue(atOnce <= 4, "per-endpoint limit held: " + atOnce + " attempts at once");
            Api.setStatus(account, deadHook, -1);
        }
    }

    private long recordedAttempts(String webhook) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em
                .createNativeQuery("select count(*) from delivery_attempt where webhook_id = ?1")
                .setParameter(1, UUID.fromString(webhook)).getSingleResult()).longValue());
    }

    /**
     * The most recorded attempts of {@code webhook} under way at one time: for each attempt's start, how many began
     * no later and had not ended yet. An attempt counts as ended 50 ms early, so clock and rounding noise between
     * one attempt's end and the next one's start on a freed slot never counts as overlap; a missing limit overlaps
     * by the whole 1 s timeout.
     */
    private int mostAttemptsAtOnce(String webhook) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery("""
                select coalesce(max(under_way), 0) from (
                    select count(*) as under_way from delivery_attempt a join delivery_attempt b
                        on b.webhook_id = a.webhook_id and b.attempted_at <= a.attempted_at
                        and (b.id = a.id or b.attempted_at + (b.duration_ms - 50) * interval '1 millisecond'
                            > a.attempted_at)
                    where a.webhook_id = ?1 group by a.id) starts
                """).setParameter(1, UUID.fromString(webhook)).getSingleResult()).intValue());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
