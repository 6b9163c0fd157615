package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.await;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.mine;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static dev.cryptopay.transaction.rest.Fixtures.transfer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.BillingRequest;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.transaction.chain.AnvilNode;
import dev.cryptopay.transaction.chain.AnvilProcess;
import dev.cryptopay.transaction.detection.Detection;
import dev.cryptopay.transaction.detection.Expiry;
import dev.cryptopay.transaction.detection.PaymentWatcher;
import dev.cryptopay.transaction.messaging.BillingRequestConsumer;
import dev.cryptopay.transaction.payout.RefundPayouts;
import dev.cryptopay.transaction.service.TestConfigurations;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The payment watcher and expiry back off while nothing is open and come back at once when this replica opens a
 * transaction or payment request (docs/decisions.md §74); what they decide does not change (PaymentDetectionTest,
 * LateTransferTest and the expiry tests run with the back-off in place). The billing retries and the refund payouts
 * back off the same way while nothing is parked or being paid out, and come back when this replica parks a billing
 * request or queues a refund leg (§98; RefundTest and BillingRequestConsumerTest run with that back-off in place).
 * The sandbox chain, which announces its changes, is read when it changes and otherwise once per idle cap (§99). A
 * network read from a node (ethereum, on a private anvil here) is read every second only while a payment request may
 * await funds on it, and otherwise once per idle cap too (§129).
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

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(AnvilNode.class));
        }
    }

    @Inject
    PaymentWatcher watcher;
    @Inject
    Expiry expiry;
    @Inject
    Detection detection;
    @Inject
    BillingRequestConsumer billing;
    @Inject
    RefundPayouts payouts;
    @Inject
    ObjectMapper mapper;
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

        // A transaction waiting for KYC has no payment request: the watcher stays idle, and expiry, which runs once
        // for the opening, sleeps to the cap again: the transaction expires in an hour, nothing falls due before
        // (§126; before, expiry ran every second while anything was open).
        MerchantConfiguration kyc = merchant(c -> c.kycEnabled(true).kycThreshold(new BigDecimal("1000")));
        JsonNode waiting = create(publishable(kyc), body("1000", "USD", "BTC", "bitcoin"));
        assertEquals(-3, waiting.get("status").asInt());
        assertEquals(MAX_IDLE, watcher.idleDelay(), "no payment request is open yet");
        sleep(INTERVAL.multipliedBy(2)); // expiry's run for the opening, at once or a second after its last one
        assertEquals(MAX_IDLE, expiry.idleDelay(), "the KYC transaction falls due in an hour, not within the cap");

        // A payment request: the watcher is back to every second at once, and a transfer to it is found promptly.
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        awaitDelay("watcher", watcher::idleDelay, INTERVAL, Duration.ofMillis(500));
        Instant sent = Instant.now();
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.002", 1);
        await(m, created.get("transactionId").asText(), tx -> tx.get("status").asInt() == 1);
        Duration took = Duration.between(sent, Instant.now());
        assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "paid " + took + " after the transfer");

        // While a payment request awaits funds the watcher stays at the interval; once it ends it backs off again.
        assertEquals(MAX_IDLE, expiry.idleDelay(), "the KYC transaction is still open, an hour from falling due");
        endEverythingOpen();
        awaitDelay("watcher", watcher::idleDelay, MAX_IDLE, Duration.ofSeconds(30));
        awaitDelay("expiry", expiry::idleDelay, MAX_IDLE, Duration.ofSeconds(30));
    }

    /**
     * Expiry sleeps until the earliest open expiration, within the interval and the cap (§126): a transaction whose QR
     * lives 3 s puts the next run at its expiration (a delay between the interval and the cap), and it is expired
     * when it falls due, not a cap later.
     */
    @Test
    void expiryRunsWhenTheEarliestOpenExpirationFallsDue() {
        Fixtures.rate("BTC", "50000", null);
        endEverythingOpen();
        awaitDelay("expiry", expiry::idleDelay, MAX_IDLE, Duration.ofSeconds(30));

        MerchantConfiguration m = merchant(c -> c.qrExpirationSeconds(3));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        UUID id = UUID.fromString(created.get("transactionId").asText());
        Instant due = QuarkusTransaction.requiringNew().call(() -> ((OffsetDateTime) em.createNativeQuery(
                "select expiration from transaction where id = :id", OffsetDateTime.class).setParameter("id", id)
                .getSingleResult()).toInstant());
        awaitUntil(() -> expiry.idleDelay().compareTo(INTERVAL) > 0 && expiry.idleDelay().compareTo(MAX_IDLE) < 0,
                () -> "expiry's delay " + expiry.idleDelay() + " is not the time until the expiration 3 s away",
                Duration.ofMillis(1500));
        awaitUntil(() -> status(id) == -1, () -> "the transaction was not expired within a second of " + due,
                Duration.between(Instant.now(), due.plus(INTERVAL)));
    }

    private int status(UUID transactionId) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select status from transaction where id = :id").setParameter("id", transactionId).getSingleResult())
                .intValue());
    }

    @Test
    void billingRetriesAndRefundPayoutsIdleUntilThisReplicaGivesThemWork() {
        Fixtures.rate("BTC", "50000", null);
        endEverythingOpen();
        awaitDelay("billing retries", billing::idleDelay, MAX_IDLE, Duration.ofSeconds(30));
        awaitDelay("refund payouts", payouts::idleDelay, MAX_IDLE, Duration.ofSeconds(30));

        // A billing request for a merchant not yet in the view is parked here: the retry job is back to every second
        // after that commit, stays there while the request waits, and tries it again after its first pause (1 s).
        MerchantConfiguration later = TestConfigurations.merchant(c -> c.allowedCrypto("BTC"));
        UUID billed = UUID.randomUUID();
        billing.onBillingEvent(CloudEvent.of("/subscription-service", EventTypes.BILLING_TRANSACTION_REQUESTED,
                billed.toString(), mapper.valueToTree(new BillingRequest(billed.toString(), later.accountId(),
                        later.merchantId(), BigDecimal.TEN, "USD", "BTC", "bitcoin", "p-idle", null, null)))
                .toJson());
        assertEquals(INTERVAL, billing.idleDelay(), "a request parked here brings the retries back at once");
        Instant parked = Instant.now();
        awaitAttempts(billed, 2, Duration.ofSeconds(10));
        Duration retriedAfter = Duration.between(parked, Instant.now());
        assertTrue(retriedAfter.compareTo(MAX_IDLE) < 0, "retried " + retriedAfter + " after it was parked");
        assertEquals(INTERVAL, billing.idleDelay(), "a parked request keeps the job at every second");
        QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery("delete from billing_retry where "
                + "transaction_id = :id").setParameter("id", billed).executeUpdate());
        awaitDelay("billing retries", billing::idleDelay, MAX_IDLE, Duration.ofSeconds(30));

        // A refund leg queued here brings the payouts back at once; they pay it out, follow it while it confirms, and
        // back off again once it has completed.
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), created.get("assetAmount").asText(), 1);
        await(m, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(MAX_IDLE, payouts.idleDelay(), "nothing to pay out yet");
        apiKey(m).contentType(ContentType.JSON).body("{\"amount\":50,\"gasFeePayer\":\"merchant\"}")
                .when().post("/account/" + m.accountId() + "/transaction/" + id + "/refund").then().statusCode(201);
        assertEquals(INTERVAL, payouts.idleDelay(), "a leg queued here brings the payouts back at once");
        await(m, id, tx -> tx.get("refunds").get(0).get("status").asInt() == 2);
        assertEquals(INTERVAL, payouts.idleDelay(), "a broadcast leg is followed every second");
        mine(m, "bitcoin", 1);
        await(m, id, tx -> tx.get("refunds").get(0).get("status").asInt() == 1);
        awaitDelay("refund payouts", payouts::idleDelay, MAX_IDLE, Duration.ofSeconds(30));
    }

    /**
     * The sandbox chain announces every change (§99): it is read when it changes, and timed passes read it only once per
     * idle cap, not every second, even with a payment request open. A block written without the announcement (as by a
     * replica that stopped before its pass) is read by that safety net within the cap.
     */
    @Test
    void sandboxNetworksAreReadWhenTheyChangeAndOtherwiseOncePerIdleCap() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        awaitDelay("watcher", watcher::idleDelay, INTERVAL, Duration.ofMillis(500));
        mine(m, "polygon", 1);
        long head = sandboxHead("polygon");
        awaitUntil(() -> cursor("polygon") == head, () -> "the mined block was not read at once",
                Duration.ofSeconds(2));

        // polygon was just read; a block written now without its announcement waits for the safety net, although the
        // watcher passes every second (before §99 every pass read every network).
        QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery("insert into sandbox_block "
                + "(network, number, hash, parent_hash, mined_at) select network, number + 1, "
                + "'0xunannounced' || (number + 1), hash, now() from sandbox_block where network = 'polygon' "
                + "order by number desc limit 1").executeUpdate());
        Instant written = Instant.now();
        sleep(Duration.ofMillis(2500));
        assertEquals(head, cursor("polygon"), "a timed pass read the sandbox network although nothing announced a change");
        assertEquals(INTERVAL, watcher.idleDelay(), "a payment request is still open: the passes run every second");
        awaitUntil(() -> cursor("polygon") == head + 1,
                () -> "a block written without its announcement was not read within the idle cap",
                MAX_IDLE.plus(Duration.ofSeconds(2)).minus(Duration.between(written, Instant.now())));
    }

    /**
     * A node's network is read every second only while a payment request may await funds on it or a transfer on it
     * gains confirmations (§129). With a request open on the sandbox's bitcoin only, a block mined on the node waits
     * for the safety net (within the idle cap). A request opened here on ethereum has the node read at every timed
     * pass, and so does its transfer while it gains confirmations after the request's expiration; once it is
     * confirmed (and the database's next look has seen it) the node is left to the safety net. A request awaiting
     * funds that another replica opened (written here straight into the database) is found at the watcher's next look
     * at the database, once per idle cap.
     */
    @Test
    void aNodeIsReadEverySecondOnlyWhileSomethingIsOpenOnItsNetwork() {
        Fixtures.rate("BTC", "50000", null);
        Fixtures.rate("ETH", "3000", null);
        endEverythingOpen();
        // The node is new with this profile: forget the height an earlier run's node left the watcher at (it would
        // wait for this chain to pass it).
        QuarkusTransaction.requiringNew().run(() -> {
            em.createNativeQuery("delete from chain_block where network = 'ethereum'").executeUpdate();
            em.createNativeQuery("delete from chain_cursor where network = 'ethereum'").executeUpdate();
        });
        AnvilProcess node = AnvilNode.running();
        // Backed off: a look at the database has found nothing open (what earlier classes left was ended above).
        awaitDelay("watcher", watcher::idleDelay, MAX_IDLE, Duration.ofSeconds(30));
        create(apiKey(merchant(c -> c)), body("100", "USD", "BTC", "bitcoin"));
        awaitDelay("watcher", watcher::idleDelay, INTERVAL, Duration.ofMillis(500));
        assertFalse(watcher.readsEverySecond("ethereum"), "nothing is open on ethereum");
        assertLeftToTheSafetyNet(node, "a timed pass read the node although nothing is open on ethereum");
        assertEquals(INTERVAL, watcher.idleDelay(), "a request is open on bitcoin: the passes run every second");

        // Opened here: the watcher reads the node at every tick at once (before any look at the database could have
        // seen the request), and the transfer to it is found at the next tick, well before the request expires.
        MerchantConfiguration m = merchant(c -> c.qrExpirationSeconds(8).minConfirms(5, 5));
        JsonNode eth = create(apiKey(m), body("100", "USD", "ETH", "ethereum"));
        assertTrue(watcher.readsEverySecond("ethereum"), "the request opened here on ethereum (the database's next "
                + "look, a few seconds away at most, would find it too)");
        String id = eth.get("transactionId").asText();
        Instant expiration = Instant.now().plusSeconds(8);
        node.sendEth(AnvilProcess.ACCOUNTS.get(1), eth.get("address").asText(),
                new BigDecimal(eth.get("assetAmount").asText()).movePointRight(18).toBigIntegerExact());
        Instant sent = Instant.now();
        await(m, id, tx -> tx.get("paymentStatus").asInt() == 2);
        Duration found = Duration.between(sent, Instant.now());
        assertTrue(found.compareTo(Duration.ofMillis(3000)) < 0, "the transfer was found " + found + " after it was "
                + "mined: the node was not read every second with a request open on ethereum");
        assertTrue(detection.leftConfirming("ethereum"), "the pass left the transfer gaining confirmations");

        // Its request's expiration passed (and the database's next look dropped the opening): the transfer still
        // gains confirmations every second, and once it is confirmed the node is left to the safety net.
        sleep(Duration.between(Instant.now(), expiration).plus(MAX_IDLE).plus(INTERVAL));
        assertReadEverySecond(node, "a transfer gaining confirmations after its request expired");
        node.mine(2);
        await(m, id, tx -> tx.get("status").asInt() == 1);
        assertFalse(detection.leftConfirming("ethereum"), "the pass that confirmed the transfer left none confirming");
        sleep(MAX_IDLE.plus(INTERVAL)); // the database's last look still had it confirming: until the next one
        assertLeftToTheSafetyNet(node, "the node is still read every second after the transfer was confirmed");

        // A request awaiting funds that this replica did not open: found at the next look at the database.
        QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery("update payment_request set status = 0, "
                + "expiration = now() + interval '1 hour' where transaction_id = :id")
                .setParameter("id", UUID.fromString(id)).executeUpdate());
        sleep(MAX_IDLE.plus(INTERVAL));
        assertReadEverySecond(node, "a request another replica opened on ethereum");
        endEverythingOpen();
    }

    /**
     * After a read of the node, a block mined on it is read at the next timed pass: within 3 s, where the safety net
     * reads it 3.5 s after that read at the earliest (the idle cap less half an interval).
     */
    private void assertReadEverySecond(AnvilProcess node, String what) {
        awaitARead(node);
        node.mine(1);
        long head = node.blockNumber();
        awaitUntil(() -> cursor("ethereum") == head, () -> what + ": the node's block " + head
                + " was not read at the next timed pass", Duration.ofMillis(3000));
    }

    /** After a read of the node, a block mined on it is not read for the next 2.5 s (the safety net reads it later). */
    private void assertLeftToTheSafetyNet(AnvilProcess node, String failure) {
        awaitARead(node);
        node.mine(1);
        sleep(Duration.ofMillis(2500));
        assertEquals(node.blockNumber() - 1, cursor("ethereum"), failure);
    }

    /**
     * Mines a block on the node and waits until the watcher has read it: the next read at the safety net is then an
     * idle cap away.
     */
    private void awaitARead(AnvilProcess node) {
        node.mine(1);
        long head = node.blockNumber();
        awaitUntil(() -> cursor("ethereum") == head, () -> "the node's block " + head + " was not read within the "
                + "idle cap", MAX_IDLE.plus(Duration.ofSeconds(3)));
    }

    private long sandboxHead(String network) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select max(number) from sandbox_block where network = :n").setParameter("n", network)
                .getSingleResult()).longValue());
    }

    private long cursor(String network) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select coalesce(max(block_number), -1) from chain_cursor where network = :n")
                .setParameter("n", network).getSingleResult()).longValue());
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Ends what earlier test classes left open, as on a platform where nothing is being paid or retried. */
    private void endEverythingOpen() {
        QuarkusTransaction.requiringNew().run(() -> {
            em.createNativeQuery("update payment_request set status = -1 where status = 0").executeUpdate();
            em.createNativeQuery("update payment_transfer set status = 1 where status = 0").executeUpdate();
            em.createNativeQuery("update transaction set status = -1 where status in (0, -3)").executeUpdate();
            em.createNativeQuery("update refund set status = -1 where status in (0, 2)").executeUpdate();
            em.createNativeQuery("delete from billing_retry").executeUpdate();
        });
    }

    private void awaitAttempts(UUID transactionId, int attempts, Duration timeout) {
        awaitUntil(() -> QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select coalesce(max(attempts), 0) from billing_retry where transaction_id = :id")
                .setParameter("id", transactionId).getSingleResult()).intValue()) >= attempts,
                () -> "billing request " + transactionId + " was not retried", timeout);
    }

    private static void awaitDelay(String job, Supplier<Duration> delay, Duration expected, Duration timeout) {
        awaitUntil(() -> delay.get().equals(expected), () -> job + " delay still " + delay.get() + " after " + timeout,
                timeout);
    }

    /** Polls {@code done} every 50 ms; fails with {@code failure} once {@code timeout} has passed. */
    private static void awaitUntil(BooleanSupplier done, Supplier<String> failure, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (!done.getAsBoolean()) {
            assertTrue(Instant.now().isBefore(deadline), failure);
            sleep(Duration.ofMillis(50));
        }
    }
}
