package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.await;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static dev.cryptopay.transaction.rest.Fixtures.transfer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.transaction.detection.Expiry;
import dev.cryptopay.transaction.detection.PaymentWatcher;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The payment watcher and expiry back off while nothing is open and come back at once when this replica opens a
 * transaction or payment request (docs/decisions.md §74); what they decide does not change (PaymentDetectionTest,
 * LateTransferTest and the expiry tests run with the back-off in place).
 */
@QuarkusTest
@TestProfile(DetectionIdleTest.ShortIdleDelay.class)
class DetectionIdleTest {

    static final Duration INTERVAL = Duration.ofSeconds(1);
    static final Duration MAX_IDLE = Duration.ofSeconds(4);

    public static class ShortIdleDelay implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cryptopay.detection.max-idle-interval", MAX_IDLE.toSeconds() + "s");
        }
    }

    @Inject
    PaymentWatcher watcher;
    @Inject
    Expiry expiry;
    @Inject
    EntityManager em;

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @Test
    void idleJobsBackOffAndAnOpeningHereBringsThemBackAtOnce() {
        Fixtures.rate("BTC", "50000", null);
        endEverythingOpen();
        awaitDelay("watcher", watcher::idleDelay, MAX_IDLE, Duration.ofSeconds(30));
        awaitDelay("expiry", expiry::idleDelay, MAX_IDLE, Duration.ofSeconds(30));

        // A transaction waiting for KYC has no payment request: expiry comes back, the watcher stays idle.
        MerchantConfiguration kyc = merchant(c -> c.kycEnabled(true).kycThreshold(new BigDecimal("1000")));
        JsonNode waiting = create(publishable(kyc), body("1000", "USD", "BTC", "bitcoin"));
        assertEquals(-3, waiting.get("status").asInt());
        awaitDelay("expiry", expiry::idleDelay, INTERVAL, Duration.ofMillis(500));
        assertEquals(MAX_IDLE, watcher.idleDelay(), "no payment request is open yet");

        // A payment request: the watcher is back to every second at once, and a transfer to it is found promptly.
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        awaitDelay("watcher", watcher::idleDelay, INTERVAL, Duration.ofMillis(500));
        Instant sent = Instant.now();
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.002", 1);
        await(m, created.get("transactionId").asText(), tx -> tx.get("status").asInt() == 1);
        Duration took = Duration.between(sent, Instant.now());
        assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "paid " + took + " after the transfer");

        // While something is open they stay at the interval; once it ends they back off again.
        assertEquals(INTERVAL, expiry.idleDelay(), "the KYC transaction is still open");
        endEverythingOpen();
        awaitDelay("watcher", watcher::idleDelay, MAX_IDLE, Duration.ofSeconds(30));
        awaitDelay("expiry", expiry::idleDelay, MAX_IDLE, Duration.ofSeconds(30));
    }

    /** Ends what earlier test classes left open, as on a platform where nothing is being paid. */
    private void endEverythingOpen() {
        QuarkusTransaction.requiringNew().run(() -> {
            em.createNativeQuery("update payment_request set status = -1 where status = 0").executeUpdate();
            em.createNativeQuery("update payment_transfer set status = 1 where status = 0").executeUpdate();
            em.createNativeQuery("update transaction set status = -1 where status in (0, -3)").executeUpdate();
        });
    }

    private static void awaitDelay(String job, Supplier<Duration> delay, Duration expected, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (!delay.get().equals(expected)) {
            assertTrue(Instant.now().isBefore(deadline), job + " delay still " + delay.get() + " after " + timeout);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
