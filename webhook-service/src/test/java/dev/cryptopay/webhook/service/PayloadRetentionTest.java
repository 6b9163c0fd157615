package dev.cryptopay.webhook.service;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Event bodies are kept for a bounded time (docs/decisions.md §43): older than the retention (30 days) and with no
 * pending delivery, a body is deleted; the delivery log stays, and redelivering such a delivery is 409.
 */
@QuarkusTest
class PayloadRetentionTest {

    @Inject
    PayloadRetention retention;
    @Inject
    EntityManager em;

    private UUID webhook(UUID account, int status) {
        UUID id = UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery("insert into webhook (id, account_id, name, "
                + "url, status, events, signing_key, created_at, updated_at) values (?1, ?2, 'r', 'http://127.0.0.1:9/', "
                + "?3, array['*'], ?4, now(), now())").setParameter(1, id).setParameter(2, account)
                .setParameter(3, status).setParameter(4, SigningSecrets.newSecret()).executeUpdate());
        return id;
    }

    private UUID event(UUID webhook, UUID account, String eventId, int ageDays, String status) {
        UUID delivery = UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> {
            em.createNativeQuery("insert into event_payload (event_id, event_type, payload, created_at) values "
                    + "(?1, 'transaction.success', '{}', now() - ?2 * interval '1 day')").setParameter(1, eventId)
                    .setParameter(2, ageDays).executeUpdate();
            em.createNativeQuery("insert into delivery (id, webhook_id, account_id, event_id, event_type, status, "
                    + "next_attempt_at) values (?1, ?2, ?3, ?4, 'transaction.success', ?5, "
                    + "case when ?5 = 'pending' then now() end)").setParameter(1, delivery).setParameter(2, webhook)
                    .setParameter(3, account).setParameter(4, eventId).setParameter(5, status).executeUpdate();
        });
        return delivery;
    }

    private long kept(String eventId) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select count(*) from event_payload where event_id = ?1").setParameter(1, eventId).getSingleResult())
                .longValue());
    }

    @Test
    void oldBodiesWithoutPendingDeliveriesGoAndTheirRedeliveryIsRefused() {
        UUID account = UUID.randomUUID();
        UUID enabled = webhook(account, 1);
        UUID disabled = webhook(account, -1); // its pending delivery stays pending (nothing attempts it)
        String old = "retention-old-" + UUID.randomUUID();
        String pending = "retention-pending-" + UUID.randomUUID();
        String recent = "retention-recent-" + UUID.randomUUID();
        UUID oldDelivery = event(enabled, account, old, 31, "delivered");
        event(disabled, account, pending, 31, "pending");
        event(enabled, account, recent, 29, "failed");

        retention.purgeBatch();

        assertEquals(0, kept(old), "an old body nothing waits for is deleted");
        assertEquals(1, kept(pending), "a body a pending delivery needs is kept");
        assertEquals(1, kept(recent), "a body within the retention is kept");
        given().auth().oauth2(TestTokens.admin(account))
                .when().post("/accounts/" + account + "/webhooks/" + enabled + "/deliveries/" + oldDelivery
                        + "/redeliver")
                .then().statusCode(409).body("code", equalTo("invalid_state"));
    }
}
