package dev.cryptopay.systemtests.webhooks;

import static dev.cryptopay.systemtests.webhooks.WebhookFixtures.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * At-least-once across a crash: webhook-service is SIGKILLed in the middle of a burst of 1,000 transaction events
 * and started again; every event still reaches the receiver, none is lost. Duplicates are allowed (receivers
 * dedupe on webhook-id) and reported. Events are produced by the test: transaction-service does not publish
 * transaction.success yet.
 */
class WebhookCrashIT {

    private static final int EVENTS = 1000;
    private static Suite suite;

    @BeforeAll
    static void startSuite() {
        suite = Suite.throughGateway();
    }

    @Test
    void aKilledWebhookServiceLosesNoEvent() throws Exception {
        Account shop = WebhookFixtures.newAccount(suite, "Crash Shop");
        try (WebhookReceiver receiver = WebhookReceiver.answering(200);
                KafkaProducer<String, String> producer = WebhookFixtures.producer()) {
            JsonPath hook = WebhookFixtures.createWebhook(shop, "burst", receiver.url(), List.of("*"));
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                ids.add(UUID.randomUUID().toString());
            }

            // First half of the burst; kill the service while it is delivering it.
            for (int i = 0; i < EVENTS / 2; i++) {
                String tx = UUID.randomUUID().toString();
                producer.send(new ProducerRecord<>(Topics.TRANSACTIONS, tx,
                        WebhookFixtures.transactionEvent(ids.get(i), "transaction.success", tx, shop.id())));
            }
            producer.flush();
            awaitTrue(Duration.ofSeconds(60), () -> receiver.distinctIds().size() >= 50, "deliveries under way");
            suite.kill("webhook");
            int beforeKill = receiver.distinctIds().size();
            System.out.printf("[webhooks] killed webhook-service after %d of %d events were delivered%n", beforeKill,
                    EVENTS);

            // Second half while the service is down: it waits in Kafka.
            for (int i = EVENTS / 2; i < EVENTS; i++) {
                String tx = UUID.randomUUID().toString();
                producer.send(new ProducerRecord<>(Topics.TRANSACTIONS, tx,
                        WebhookFixtures.transactionEvent(ids.get(i), "transaction.success", tx, shop.id())));
            }
            producer.flush();
            assertTrue(beforeKill < EVENTS, "the kill came in the middle of the burst");

            suite.startService("webhook");
            awaitTrue(Duration.ofSeconds(180), () -> receiver.distinctIds().containsAll(ids),
                    "every event delivered after the restart (" + receiver.distinctIds().size() + " of " + EVENTS + ")");

            Set<String> missing = new HashSet<>(ids);
            missing.removeAll(receiver.distinctIds());
            assertEquals(Set.of(), missing, "no event lost");
            long duplicates = receiver.count() - receiver.distinctIds().size();
            System.out.printf("[webhooks] all %d events delivered; %d duplicate requests (same webhook-id)%n", EVENTS,
                    duplicates);
            String key = hook.getString("signingKey");
            receiver.requests().forEach(r -> assertTrue(WebhookFixtures.signatureValid(key, r), r.webhookId()));

            // The log settles: one delivery per event, all delivered, none left leased or pending.
            awaitTrue(Duration.ofSeconds(60), () -> WebhookFixtures.count("select count(*) from delivery where "
                    + "webhook_id = ?::uuid and status = 'delivered'", hook.getString("uuid")) == EVENTS,
                    "all deliveries recorded as delivered");
            assertEquals(EVENTS, WebhookFixtures.count("select count(*) from delivery where webhook_id = ?::uuid",
                    hook.getString("uuid")));
        }
    }
}
