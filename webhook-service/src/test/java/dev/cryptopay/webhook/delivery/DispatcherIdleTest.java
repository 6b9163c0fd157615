package dev.cryptopay.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.webhook.delivery.DispatcherIdleTest.SlowRetries;
import dev.cryptopay.webhook.testing.Api;
import dev.cryptopay.webhook.testing.Await;
import dev.cryptopay.webhook.testing.Events;
import dev.cryptopay.webhook.testing.Receiver;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher backs off while idle and still meets its retries (docs/decisions.md §76): with a 100 ms poll
 * interval and an 8 s cap, an idle dispatcher claims a handful of times in 6 s instead of 60; a retry due 3.5 s after a
 * failure is attempted on time, although the back-off alone (100, 200, 400 ms … after the failure woke it) would find it
 * only about 6.3 s after the failure.
 */
@QuarkusTest
@TestProfile(SlowRetries.class)
class DispatcherIdleTest {

    public static class SlowRetries implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cryptopay.webhooks.poll-interval", "100ms",
                    "cryptopay.webhooks.max-idle-poll-interval", "8s",
                    "cryptopay.webhooks.retry-schedule", "3500ms");
        }
    }

    private static final long RETRY_MILLIS = 3500;

    @Inject
    DeliveryDispatcher dispatcher;
    @Inject
    EntityManager em;

    /**
     * Deliveries the dispatcher could claim within the next 12 s (earlier tests' retries). Later ones do not disturb
     * the test, nor do pending rows of webhooks that are disabled or deleted, which no claim takes (earlier tests
     * leave some).
     */
    private long dueSoon() {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery("select count(*) from "
                + "delivery d join webhook w on w.id = d.webhook_id and w.status = 1 and w.deleted_at is null "
                + "where d.status = 'pending' and d.next_attempt_at < now() + interval '12 seconds'")
                .getSingleResult()).longValue());
    }

    @Test
    void anIdleDispatcherBacksOffAndStillAttemptsARetryWhenItFallsDue() throws Exception {
        // Idle: nothing due meanwhile (earlier tests' deliveries finished), nothing in flight.
        Await.until(Duration.ofSeconds(60), () -> dueSoon() == 0 && dispatcher.inFlight() == 0,
                () -> dueSoon() + " deliveries still due soon");
        Thread.sleep(3000);
        long before = dispatcher.claimRounds();
        Thread.sleep(6000);
        long rounds = dispatcher.claimRounds() - before;
        assertTrue(rounds <= 5, rounds + " claim rounds in 6 s of idling; every 100 ms would be 60");

        try (Receiver receiver = Receiver.scripted(200, 500); Events events = new Events()) {
            UUID account = UUID.randomUUID();
            Api.createWebhook(account, "retried", receiver.url(), List.of("*"));
            String eventId = events.transaction(account, "transaction.success");
            Await.until(Duration.ofSeconds(30), () -> receiver.requestsFor(eventId).size() >= 2,
                    () -> receiver.requestsFor(eventId).size() + " attempts of the event");
            List<Receiver.Request> got = receiver.requestsFor(eventId);
            assertEquals(2, got.size(), "a failure and its one retry");
            long gap = got.get(1).receivedAtMillis() - got.get(0).receivedAtMillis();
            assertTrue(gap >= RETRY_MILLIS - 5, "the retry came " + gap + " ms after the failure, before its time");
            assertTrue(gap < RETRY_MILLIS + 1500, "the retry came " + gap + " ms after the failure; it was due after "
                    + RETRY_MILLIS + " ms (the back-off alone would have found it after about 6,300 ms)");
        }
    }
}
