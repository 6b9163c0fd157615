package dev.cryptopay.systemtests.webhooks;

import static dev.cryptopay.systemtests.webhooks.WebhookFixtures.awaitTrue;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security review, webhook signing secrets (docs/decisions.md §42), through the gateway: a read-only key sees them
 * masked, a key that may write webhooks sees them in full and can rotate them, both secrets sign during the overlap,
 * and the database keeps them encrypted.
 */
class WebhookSecretsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
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

    private static JsonPath list(Account account, String key) {
        return given().header("X-Api-Key", key).when().get("/accounts/" + account.id() + "/webhooks")
                .then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aReadOnlyKeySeesTheSigningKeyMaskedAWriteKeyInFull() {
        Account account = WebhookFixtures.newAccount(suite, "Secrets Shop");
        String readOnly = WebhookFixtures.newKey(account, "read_only");
        String secret = WebhookFixtures.createWebhook(account, "orders", "http://127.0.0.1:9/hook",
                List.of("transaction.success")).getString("signingKey");

        assertEquals(secret, list(account, account.apiKey()).getString("webhooks[0].signingKey"));
        String masked = list(account, readOnly).getString("webhooks[0].signingKey");
        assertEquals("wk_\u2026" + secret.substring(secret.length() - 4), masked);
        assertFalse(masked.contains(secret.substring(3, 20)), "no part of the secret beyond the last four");
    }

    @Test
    void signingKeysAreEncryptedAtRest() {
        Account account = WebhookFixtures.newAccount(suite, "Sealed Shop");
        JsonPath hook = WebhookFixtures.createWebhook(account, "orders", "http://127.0.0.1:9/hook", List.of("*"));
        String stored = WebhookFixtures.text("select signing_key from webhook where id = ?::uuid",
                hook.getString("uuid"));
        assertNotNull(stored);
        assertFalse(stored.startsWith("wk_"), "not the clear secret: " + stored.substring(0, 3));
        assertFalse(stored.contains(hook.getString("signingKey").substring(3)), "the secret does not appear");
        assertEquals(0, WebhookFixtures.count("select count(*) from webhook where signing_key like 'wk\\_%' "
                + "and account_id = ?::uuid", account.id()));
    }

    @Test
    void onlyAWriteKeyRotatesAndBothSecretsSignDuringTheOverlap() throws Exception {
        Account account = WebhookFixtures.newAccount(suite, "Rotating Shop");
        String readOnly = WebhookFixtures.newKey(account, "read_only");
        try (WebhookReceiver receiver = WebhookReceiver.answering(200)) {
            JsonPath hook = WebhookFixtures.createWebhook(account, "orders", receiver.url(),
                    List.of("transaction.success"));
            String id = hook.getString("uuid");
            String oldSecret = hook.getString("signingKey");
            String path = "/accounts/" + account.id() + "/webhooks/" + id + "/rotate-secret";

            given().header("X-Api-Key", readOnly).when().post(path).then().statusCode(403);
            given().header("X-Api-Key", account.apiKey()).when()
                    .post("/accounts/" + account.id() + "/webhooks/" + UUID.randomUUID() + "/rotate-secret")
                    .then().statusCode(404);
            Instant before = Instant.now();
            JsonPath rotated = given().header("X-Api-Key", account.apiKey()).when().post(path)
                    .then().statusCode(200).body("uuid", equalTo(id)).extract().jsonPath();
            String newSecret = rotated.getString("signingKey");
            assertTrue(newSecret.matches("wk_[A-Za-z0-9+/]{43}="), newSecret);
            assertNotEquals(oldSecret, newSecret);
            Instant overlapEnds = Instant.parse(rotated.getString("previousKeyExpiresAt"));
            assertTrue(overlapEnds.isAfter(before.plus(Duration.ofHours(23))), "about a day of overlap");
            assertEquals(newSecret, list(account, account.apiKey()).getString("webhooks[0].signingKey"));

            String transaction = UUID.randomUUID().toString();
            String eventId = UUID.randomUUID().toString();
            WebhookFixtures.publish(producer, transaction, WebhookFixtures.transactionEvent(eventId,
                    "transaction.success", transaction, account.id()));
            awaitTrue(WAIT, () -> !receiver.requestsFor(eventId).isEmpty(), "the event delivered");
            WebhookReceiver.Request request = receiver.requestsFor(eventId).get(0);
            assertEquals(2, request.signature().split(" ").length, request.signature());
            assertTrue(WebhookFixtures.signatureValid(newSecret, request), "the new secret verifies");
            assertTrue(WebhookFixtures.signatureValid(oldSecret, request), "the old one too, during the overlap");
        }
    }
}
