package dev.cryptopay.systemtests.webhooks;

import static dev.cryptopay.systemtests.webhooks.WebhookFixtures.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security review, personal data (docs/decisions.md §7, §43): customer details that an event still carries in
 * {@code compliance.kycDetails} reach neither the merchant's webhook nor webhook-service's payload table.
 */
class WebhookPersonalDataIT {

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

    @Test
    void customerDetailsInAnEventAreNeitherSentNorKept() throws Exception {
        Account account = WebhookFixtures.newAccount(suite, "Personal Data Shop");
        try (WebhookReceiver receiver = WebhookReceiver.answering(200)) {
            WebhookFixtures.createWebhook(account, "orders", receiver.url(), List.of("transaction.success"));
            String transaction = UUID.randomUUID().toString();
            String eventId = UUID.randomUUID().toString();
            String email = "jane.doe." + eventId.substring(0, 8) + "@customer.example";
            String event = WebhookFixtures.transactionEvent(eventId, "transaction.success", transaction, account.id())
                    .replace("\"compliance\":{\"kycTriggered\":false,",
                            "\"compliance\":{\"kycDetails\":{\"fullName\":\"Jane Doe\",\"email\":\"" + email
                                    + "\",\"address\":\"1 Main St\"},\"kycTriggered\":false,");
            assertTrue(event.contains(email), "the test event carries the details");
            WebhookFixtures.publish(producer, transaction, event);

            awaitTrue(Duration.ofSeconds(60), () -> !receiver.requestsFor(eventId).isEmpty(), "the event delivered");
            String body = receiver.requestsFor(eventId).get(0).body();
            JsonNode compliance = JSON.readTree(body).path("data").path("compliance");
            assertTrue(compliance.has("kycDetails") && compliance.get("kycDetails").isNull(), body);
            assertFalse(body.contains(email), "the e-mail address is not sent");
            assertFalse(body.contains("Jane Doe"), "nor the name");
            assertTrue(compliance.has("kycTriggered") && !compliance.get("kycTriggered").asBoolean(true),
                    "the rest of the data is kept");

            String stored = WebhookFixtures.text("select payload from event_payload where event_id = ?", eventId);
            assertFalse(stored.contains(email), "nor kept in webhook-service's payload table");
        }
    }
}
