package dev.cryptopay.webhook.delivery;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.TestTokens;
import dev.cryptopay.webhook.config.WebhookConfig;
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
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Retries on the schedule of docs/decisions.md §7, scaled down for tests (application.properties, %test:
 * 100, 200, 300, 400, 400, 400, 400 ms; a request times out after 1 s), failure marking and redelivery.
 */
@QuarkusTest
class RetryTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Events events;

    @Inject
    EntityManager em;

    @Inject
    WebhookConfig config;

    @BeforeAll
    static void open() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        events = new Events();
    }

    @AfterAll
    static void close() {
        events.close();
    }

    /** status, attempts, next_attempt_at, lease_until of the event's delivery; all null before it exists. */
    private Object[] delivery(String eventId) {
        List<?> rows = QuarkusTransaction.requiringNew().call(() -> em
                .createNativeQuery("select status, attempts, next_attempt_at, lease_until from delivery where event_id = ?1")
                .setParameter(1, eventId).getResultList());
        return rows.isEmpty() ? new Object[4] : (Object[]) rows.get(0);
    }

    @Test
    void aReceiverThatAlwaysFailsGetsOneAttemptPerScheduleStepThenTheDeliveryIsFailed() throws Exception {
        UUID account = UUID.randomUUID();
        try (Receiver receiver = Receiver.answering(500)) {
            String hook = Api.createWebhook(account, "failing", receiver.url(), List.of("*")).getString("uuid");
            String eventId = events.transaction(account, "transaction.expired");
            List<Duration> schedule = config.retrySchedule();
            int attempts = schedule.size() + 1;

            Await.until(WAIT, () -> "failed".equals(delivery(eventId)[0]), () -> "delivery marked failed");
            Object[] row = delivery(eventId);
            assertEquals(attempts, ((Number) row[1]).intValue());
            assertNull(row[2], "no further attempt is planned");
            assertNull(row[3], "no lease is held");

            List<Receiver.Request> got = receiver.requestsFor(eventId);
            assertEquals(attempts, got.size(), "one request per attempt, all with the same webhook-id");
            String key = signingKey(account, hook);
            assertTrue(StandardWebhooksVerifier.verify(key, got.get(0)));
            for (int i = 1; i < got.size(); i++) {
                long gap = got.get(i).receivedAtMillis() - got.get(i - 1).receivedAtMillis();
                long planned = schedule.get(i - 1).toMillis();
                assertTrue(gap >= planned - 5, "attempt " + (i + 1) + " came " + gap + " ms after the previous one, "
                        + "the schedule says " + planned + " ms");
                assertTrue(StandardWebhooksVerifier.verify(key, got.get(i)), "every attempt is signed afresh");
            }

            JsonPath log = Api.deliveries(account, hook);
            assertEquals(attempts, log.getInt("metadata.totalCount"));
            assertEquals(attempts, log.getInt("deliveries[0].attempt"), "newest first");
            assertEquals(1, log.getInt("deliveries[" + (attempts - 1) + "].attempt"));
            assertEquals(List.of(500), log.getList("deliveries.httpStatus").stream().distinct().toList());
            assertEquals(List.of("failed"), log.getList("deliveries.deliveryStatus").stream().distinct().toList());
            assertEquals(List.of(false), log.getList("deliveries.succeeded").stream().distinct().toList());
        }
    }

    @Test
    void twoFailuresThenSuccessMakeThreeAttemptsAndADelivery() throws Exception {
        UUID account = UUID.randomUUID();
        try (Receiver receiver = Receiver.scripted(200, 500, 503)) {
            String hook = Api.createWebhook(account, "flaky", receiver.url(), List.of("*")).getString("uuid");
            String eventId = events.transaction(account, "transaction.success");
            Await.until(WAIT, () -> "delivered".equals(delivery(eventId)[0]), () -> "delivery delivered");
            assertEquals(3, receiver.requestsFor(eventId).size());
            JsonPath log = Api.deliveries(account, hook);
            assertEquals(List.of(3, 2, 1), log.getList("deliveries.attempt"));
            assertEquals(List.of(200, 503, 500), log.getList("deliveries.httpStatus"));
            assertEquals(List.of(true, false, false), log.getList("deliveries.succeeded"));
            assertEquals(List.of(eventId, eventId, eventId), log.getList("deliveries.eventId"));
        }
    }

    @Test
    void aReceiverThatDoesNotAnswerInTimeFailsTheAttemptAndIsRetried() throws Exception {
        UUID account = UUID.randomUUID();
        try (Receiver receiver = Receiver.hanging()) {
            String hook = Api.createWebhook(account, "slow", receiver.url(), List.of("*")).getString("uuid");
            String eventId = events.transaction(account, "transaction.created");
            Await.until(WAIT, () -> receiver.requestsFor(eventId).size() >= 2, () -> "a retry after the timeout");
            Await.until(WAIT, () -> Api.deliveries(account, hook).getInt("metadata.totalCount") >= 1,
                    () -> "the timed-out attempt logged");
            JsonPath log = Api.deliveries(account, hook);
            int last = log.getInt("metadata.totalCount") - 1;
            assertNull(log.get("deliveries[" + last + "].httpStatus"));
            assertTrue(log.getString("deliveries[" + last + "].error").startsWith("no answer within"));
            assertTrue(log.getInt("deliveries[" + last + "].durationMs") >= config.requestTimeout().toMillis() - 50);
            // disabling stops the retries: the delivery is cancelled, nothing more is sent
            Api.setStatus(account, hook, -1);
            Await.until(WAIT, () -> "cancelled".equals(delivery(eventId)[0]), () -> "delivery cancelled");
        }
    }

    @Test
    void redeliverySendsTheSameMessageAgainWithTheSameWebhookId() throws Exception {
        UUID account = UUID.randomUUID();
        try (Receiver receiver = Receiver.answering(200)) {
            String hook = Api.createWebhook(account, "again", receiver.url(), List.of("*")).getString("uuid");
            String eventId = events.transaction(account, "transaction.success");
            Await.until(WAIT, () -> Api.deliveries(account, hook).getInt("metadata.totalCount") == 1,
                    () -> "first attempt logged");
            String deliveryId = Api.deliveries(account, hook).getString("deliveries[0].deliveryId");
            String base = "/accounts/" + account + "/webhooks/" + hook + "/deliveries/";

            given().auth().oauth2(TestTokens.admin(account)).when().post(base + deliveryId + "/redeliver")
                    .then().statusCode(202)
                    .body("deliveryId", equalTo(deliveryId))
                    .body("eventId", equalTo(eventId))
                    .body("status", equalTo("pending"));
            Await.until(WAIT, () -> Api.deliveries(account, hook).getInt("metadata.totalCount") == 2,
                    () -> "second attempt logged");
            List<Receiver.Request> got = receiver.requestsFor(eventId);
            assertEquals(2, got.size());
            assertEquals(got.get(0).body(), got.get(1).body(), "the same message");
            JsonPath log = Api.deliveries(account, hook);
            assertEquals(List.of(2, 1), log.getList("deliveries.attempt"));
            assertEquals("delivered", log.getString("deliveries[0].deliveryStatus"));

            given().auth().oauth2(TestTokens.admin(account)).when().post(base + UUID.randomUUID() + "/redeliver")
                    .then().statusCode(404).contentType("application/problem+json");
            String otherHook = Api.createWebhook(account, "other", receiver.url(), List.of("refund.created"))
                    .getString("uuid");
            given().auth().oauth2(TestTokens.admin(account))
                    .when().post("/accounts/" + account + "/webhooks/" + otherHook + "/deliveries/" + deliveryId
                            + "/redeliver")
                    .then().statusCode(404);
            Api.setStatus(account, hook, -1);
            given().auth().oauth2(TestTokens.admin(account)).when().post(base + deliveryId + "/redeliver")
                    .then().statusCode(409).body("code", equalTo("invalid_state"));
        }
    }

    private static String signingKey(UUID account, String hook) {
        return given().auth().oauth2(TestTokens.admin(account)).get("/accounts/" + account + "/webhooks")
                .then().extract().jsonPath().getString("webhooks.find { it.uuid == '" + hook + "' }.signingKey");
    }
}
