package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.await;
import static dev.cryptopay.transaction.rest.Fixtures.mine;
import static dev.cryptopay.transaction.rest.Fixtures.transfer;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.testing.LockWaits;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Payment detection on the sandbox chain, inside transaction-service: the sandbox API records transfers and mines
 * blocks, the watcher (running as in production) finds them, and the transaction moves as docs/decisions.md §2 says.
 * Rates: BTC 50,000 USD and USDC 1 USD, so 100 USD is 0.002 BTC or 100 USDC exactly.
 */
@QuarkusTest
class PaymentDetectionTest {

    @Inject
    EntityManager em;

    @Inject
    AgroalDataSource dataSource;

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @BeforeEach
    void rates() {
        Fixtures.rate("BTC", "50000", null);
        Fixtures.rate("USDC", "1", null);
        Fixtures.rate("POL", "0.5", null);
    }

    @Test
    void aTransferConfirmsAndTheTransactionSucceedsOnce() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(2, 6));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        assertEquals("0.00200000", created.get("assetAmount").asText());

        JsonNode receipt = transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.002", 1);
        assertEquals(1, receipt.get("confirmations").asInt());
        JsonNode confirming = await(m, id, tx -> payment(tx).get("status").asInt() == 2);
        assertEquals(0, confirming.get("status").asInt());
        assertEquals(2, confirming.get("paymentStatus").asInt());
        JsonNode payment = payment(confirming);
        assertEquals(1, payment.get("confirmationCount").asInt());
        assertEquals(2, payment.get("requiredConfirmations").asInt());
        assertEquals(receipt.get("txnHash").asText(), payment.get("txnHash").asText());
        assertEquals(receipt.get("fromAddress").asText(), payment.get("fromAddress").asText());
        assertEquals(0, new BigDecimal("0.002").compareTo(payment.get("receivedCrypto").decimalValue()));
        assertEquals("confirming", payment.get("transfers").get(0).get("status").asText());

        mine(m, "bitcoin", 1);
        JsonNode paid = await(m, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(1, paid.get("paymentStatus").asInt());
        assertEquals(1, payment(paid).get("status").asInt());
        assertEquals(2, payment(paid).get("confirmationCount").asInt());
        assertEquals(0, new BigDecimal("100").compareTo(paid.get("amounts").get("receivedUSD").decimalValue()));
        assertEquals(0, BigDecimal.ZERO.compareTo(paid.get("remainingUSD").decimalValue()));

        mine(m, "bitcoin", 3);
        watcherCatchesUp(m, "bitcoin");
        assertEquals(List.of("transaction.created", "transaction.payment_detected", "transaction.success"),
                eventTypes(id));
    }

    /**
     * The expiry job expires a request (it takes requests without their transaction's lock) while the watcher finds
     * a transfer to it: the request stays EXPIRED, a final state, and the transfer counts as late. The job's update is
     * held uncommitted until the watcher waits for it, then committed.
     */
    @Test
    void aTransferFoundAsItsRequestExpiresLeavesTheRequestExpired() throws Exception {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        try (Connection expiry = dataSource.getConnection()) {
            expiry.setAutoCommit(false);
            try (PreparedStatement expire = expiry.prepareStatement(
                    "update payment_request set status = -1 where id = ?")) {
                expire.setObject(1, UUID.fromString(created.get("paymentRequestId").asText()));
                assertEquals(1, expire.executeUpdate());
            }
            transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.002", 1);
            LockWaits.awaitBlocked(dataSource, new CompletableFuture<Void>()); // the watcher's pass
            expiry.commit();
        }

        JsonNode seen = await(m, id, tx -> payment(tx).get("transfers").size() == 1);
        assertEquals(-1, payment(seen).get("status").asInt(), "expired stays expired");
        assertTrue(payment(seen).get("transfers").get(0).get("late").asBoolean(), "the transfer came late");
    }

    @Test
    void anUnderpaymentLeavesTheRemainderAndASecondRequestCompletesIt() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.0012", 1);
        JsonNode partial = await(m, id, tx -> tx.get("paymentStatus").asInt() == 3);
        assertEquals(0, partial.get("status").asInt());
        assertEquals(3, payment(partial).get("status").asInt());
        assertEquals(0, new BigDecimal("60").compareTo(partial.get("amounts").get("receivedUSD").decimalValue()));
        assertEquals(0, new BigDecimal("40").compareTo(partial.get("remainingUSD").decimalValue()));
        assertEquals(0, new BigDecimal("40").compareTo(partial.get("remainingLocal").decimalValue()));

        JsonNode second = Fixtures.tree(Fixtures.publishable(m).contentType(ContentType.JSON)
                .body("{\"asset\":\"USDC\",\"network\":\"polygon\"}").when().post("/transaction/" + id + "/payment")
                .then().statusCode(201).extract().asString());
        assertEquals(0, new BigDecimal("40").compareTo(new BigDecimal(second.get("assetAmount").asText())));
        transfer(m, "polygon", "USDC", second.get("address").asText(), "40", 1);
        JsonNode paid = await(m, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(1, paid.get("paymentStatus").asInt());
        assertEquals(0, new BigDecimal("100").compareTo(paid.get("amounts").get("receivedUSD").decimalValue()));
        assertEquals(3, paid.get("payments").get(0).get("status").asInt());
        assertEquals(1, paid.get("payments").get(1).get("status").asInt());
    }

    @Test
    void anOverpaymentSucceedsAndIsRecordedAsOverpaid() {
        // with autoRefundConfig.overpayment on (off holds it for review: ComplianceTest, docs/decisions.md §63)
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1).autoRefund(java.util.Map.of("overpayment", true)));
        JsonNode created = create(apiKey(m), body("100", "USD", "USDC", "polygon"));
        String id = created.get("transactionId").asText();
        transfer(m, "polygon", "USDC", created.get("address").asText(), "150", 1);
        JsonNode paid = await(m, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(4, paid.get("paymentStatus").asInt());
        assertEquals(1, payment(paid).get("status").asInt());
        assertEquals(0, new BigDecimal("150").compareTo(paid.get("amounts").get("receivedUSD").decimalValue()));
    }

    @Test
    void theHighThresholdAsksForMoreConfirmations() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 4).highThreshold(new BigDecimal("1000")));
        JsonNode small = create(apiKey(m), body("999.99", "USD", "USDC", "polygon"));
        JsonNode large = create(apiKey(m), body("1000", "USD", "USDC", "polygon"));
        assertEquals(1, payment(Fixtures.get(apiKey(m), small.get("transactionId").asText()))
                .get("requiredConfirmations").asInt());
        assertEquals(4, payment(Fixtures.get(apiKey(m), large.get("transactionId").asText()))
                .get("requiredConfirmations").asInt());
    }

    @Test
    void aPendingTransferIsSeenWithNoConfirmationsAndCountsWhenMined() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        JsonNode receipt = transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.002", 0);
        assertTrue(receipt.get("blockNumber").isNull());
        JsonNode seen = await(m, id, tx -> tx.get("paymentStatus").asInt() == 2);
        assertEquals(0, payment(seen).get("confirmationCount").asInt());
        assertTrue(payment(seen).get("transfers").get(0).get("blockNumber").isNull());
        mine(m, "bitcoin", 1);
        await(m, id, tx -> tx.get("status").asInt() == 1);
    }

    @Test
    void aCleanCancelWhileFundsAreConfirmingRefundsThemOnceConfirmed() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(3, 3));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.002", 0);
        await(m, id, tx -> tx.get("paymentStatus").asInt() == 2);
        JsonNode cancelled = Fixtures.tree(apiKey(m).contentType(ContentType.JSON)
                .body("{\"reason\":\"changed my mind\"}").when().patch("/transaction/" + id + "/cancel")
                .then().statusCode(200).extract().asString());
        assertEquals(-2, cancelled.get("status").asInt());
        JsonNode leg = cancelled.get("refunds").get(0);
        assertEquals(0, new BigDecimal("0.002").compareTo(leg.get("cryptoAmount").decimalValue()));
        assertEquals("merchant", leg.get("gasFeePayer").asText());
        assertEquals(0, leg.get("status").asInt());
        // the leg waits while the funds confirm, and goes out once they are confirmed; the cancel stays final
        mine(m, "bitcoin", 2);
        assertEquals(0, await(m, id, tx -> payment(tx).get("confirmationCount").asInt() == 2)
                .get("refunds").get(0).get("status").asInt());
        mine(m, "bitcoin", 1);
        JsonNode paidBack = await(m, id, tx -> tx.get("refunds").get(0).get("status").asInt() == 2);
        assertEquals(-2, paidBack.get("status").asInt());
        apiKey(m).contentType(ContentType.JSON).body("{\"forfeit\":true}")
                .when().patch("/transaction/" + id + "/cancel").then().statusCode(409)
                .contentType(containsString("application/problem+json")).body("code", equalTo("invalid_state"));
    }

    @Test
    void expiryEndsTheTransactionAndALatePaymentIsRecordedNotLost() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1).qrExpirationSeconds(1));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        JsonNode expired = await(m, id, tx -> tx.get("status").asInt() == -1);
        assertEquals(-1, payment(expired).get("status").asInt());
        assertEquals(0, BigDecimal.ZERO.compareTo(expired.get("remainingUSD").decimalValue()));

        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.002", 1);
        JsonNode late = await(m, id, tx -> payment(tx).get("transfers").size() == 1
                && payment(tx).get("transfers").get(0).get("status").asText().equals("confirmed"));
        assertEquals(-1, late.get("status").asInt());
        assertEquals(-1, payment(late).get("status").asInt());
        assertTrue(payment(late).get("transfers").get(0).get("late").asBoolean());
        assertEquals(0, new BigDecimal("0.002").compareTo(payment(late).get("receivedCrypto").decimalValue()));
        assertEquals(0, new BigDecimal("100").compareTo(late.get("amounts").get("receivedUSD").decimalValue()));
        assertEquals(1, late.get("paymentStatus").asInt());
        assertEquals(List.of("transaction.created", "transaction.expired", "transaction.payment_detected"),
                eventTypes(id));
    }

    @Test
    void readingTheSameBlocksAgainCountsNothingTwice() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(3, 3));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.001", 1);
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.001", 1);
        await(m, id, tx -> payment(tx).get("transfers").size() == 2);

        // As if the watcher had crashed before its cursor moved: it reads the last five blocks again.
        QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery("update chain_cursor c set block_number = "
                + "b.number, block_hash = b.hash from sandbox_block b where c.network = 'bitcoin' and "
                + "b.network = 'bitcoin' and b.number = c.block_number - 5").executeUpdate());
        mine(m, "bitcoin", 2);
        JsonNode paid = await(m, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(2, payment(paid).get("transfers").size());
        assertEquals(0, new BigDecimal("0.002").compareTo(payment(paid).get("receivedCrypto").decimalValue()));
        assertEquals(1, paid.get("paymentStatus").asInt());
        assertEquals(List.of("transaction.created", "transaction.payment_detected", "transaction.payment_detected",
                "transaction.success"), eventTypes(id));
    }

    @Test
    void sandboxRequestsAreValidatedFieldByField() {
        MerchantConfiguration m = merchant(c -> c);
        apiKey(m).contentType(ContentType.JSON)
                .body("{\"network\":\"dogecoin\",\"asset\":\"BTC\",\"toAddress\":\"x\",\"amount\":\"abc\","
                        + "\"confirmations\":-1}")
                .when().post("/sandbox/chain/transfers").then().statusCode(400)
                .contentType(containsString("application/problem+json"))
                .body("errors.field", hasItem("network")).body("errors.field", hasItem("amount"))
                .body("errors.field", hasItem("confirmations"));
        apiKey(m).contentType(ContentType.JSON)
                .body("{\"network\":\"bitcoin\",\"asset\":\"BTC\",\"toAddress\":\"0xabc\",\"amount\":\"0.000000001\"}")
                .when().post("/sandbox/chain/transfers").then().statusCode(400)
                .body("errors.field", hasItem("amount")).body("errors.field", hasItem("toAddress"));
        apiKey(m).contentType(ContentType.JSON).body("{\"network\":\"bitcoin\",\"asset\":\"USDC\","
                + "\"toAddress\":\"tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx\",\"amount\":\"1\"}")
                .when().post("/sandbox/chain/transfers").then().statusCode(400).body("errors.field", hasItem("asset"));
        apiKey(m).contentType(ContentType.JSON).body("{\"network\":\"bitcoin\",\"count\":0}")
                .when().post("/sandbox/chain/blocks").then().statusCode(400).body("errors.field", hasItem("count"));
        apiKey(m).contentType(ContentType.JSON).body("{\"network\":\"bitcoin\",\"count\":1001}")
                .when().post("/sandbox/chain/blocks").then().statusCode(400).body("errors.field", hasItem("count"));
        Fixtures.publishable(m).contentType(ContentType.JSON).body("{\"network\":\"bitcoin\",\"count\":1}")
                .when().post("/sandbox/chain/blocks").then().statusCode(403);
        JsonNode mined = Fixtures.tree(apiKey(m).contentType(ContentType.JSON).body("{\"network\":\"tron\",\"count\":2}")
                .when().post("/sandbox/chain/blocks").then().statusCode(200).extract().asString());
        assertEquals(2, mined.get("mined").asInt());
        assertFalse(mined.get("headHash").asText().isBlank());
    }

    private void watcherCatchesUp(MerchantConfiguration m, String network) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            Boolean caughtUp = QuarkusTransaction.requiringNew().call(() -> (Boolean) em.createNativeQuery(
                    "select (select block_number from chain_cursor where network = :n) = "
                            + "(select max(number) from sandbox_block where network = :n)")
                    .setParameter("n", network).getSingleResult());
            if (Boolean.TRUE.equals(caughtUp)) {
                return;
            }
            sleep();
        }
        throw new AssertionError("the watcher did not read " + network + " up to its head within 10 s");
    }

    private static JsonNode payment(JsonNode tx) {
        return tx.get("payments").get(tx.get("payments").size() - 1);
    }

    private List<String> eventTypes(String transactionId) {
        return QuarkusTransaction.requiringNew().call(() -> em
                .createQuery("select e.eventType from OutboxEvent e where e.messageKey = ?1 order by e.seq",
                        String.class)
                .setParameter(1, transactionId).getResultList());
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
