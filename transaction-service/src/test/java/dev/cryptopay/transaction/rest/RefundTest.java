package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.await;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.mine;
import static dev.cryptopay.transaction.rest.Fixtures.paid;
import static dev.cryptopay.transaction.rest.Fixtures.transfer;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.Topics;
import dev.cryptopay.support.outbox.OutboxEvent;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.testing.TestTokens;
import dev.cryptopay.transaction.domain.Refund;
import dev.cryptopay.transaction.service.RefundService;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.UserTransaction;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Refunds inside transaction-service on the sandbox chain (docs/transactions.md "Refunds"). Rates: BTC 50,000 USD
 * and USDC 1 USD, so 100 USD is 0.002 BTC; the sandbox gas fee is 0.00001 of the native asset (BTC 0.50 USD).
 */
@QuarkusTest
class RefundTest {

    @Inject
    EntityManager em;

    @Inject
    RefundService refunds;

    @Inject
    UserTransaction transactions;

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
    void theGasFeeComesOffUnlessTheMerchantPaysItAndTheCapHolds() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        String id = paid(m, "100");

        JsonNode customer = refund(m, id, "{\"amount\":40,\"reason\":\"returned\"}").statusCode(201).extract()
                .as(JsonNode.class);
        assertEquals(1, customer.size());
        assertEquals("0.00079000", customer.get(0).get("assetAmount").asText(), "0.0008 BTC less the 0.00001 fee");
        JsonNode merchantPays = refund(m, id, "{\"amount\":40,\"gasFeePayer\":\"merchant\"}").statusCode(201)
                .extract().as(JsonNode.class);
        assertEquals("0.00080000", merchantPays.get(0).get("assetAmount").asText());
        // 20 USD are left: 30 is over the cap
        refund(m, id, "{\"amount\":30}").statusCode(409).body("code", equalTo("refund_exceeds_paid"));

        JsonNode tx = Fixtures.get(apiKey(m), id);
        JsonNode refunds = tx.get("refunds");
        assertEquals(2, refunds.size());
        JsonNode first = refunds.get(0);
        assertEquals(customer.get(0).get("refundID").asText(), first.get("refundID").asText());
        assertEquals("customer", first.get("gasFeePayer").asText());
        assertEquals("merchant", refunds.get(1).get("gasFeePayer").asText());
        assertEquals("BTC", first.get("cryptoAsset").asText());
        assertEquals("bitcoin", first.get("cryptoNetwork").asText());
        assertEquals(0, new BigDecimal("0.00079").compareTo(first.get("cryptoAmount").decimalValue()));
        assertEquals(0, new BigDecimal("40").compareTo(first.get("fiatAmount").decimalValue()));
        assertEquals("USD", first.get("fiatCurrency").asText());
        assertEquals(0, new BigDecimal("0.00001").compareTo(first.get("gasFee").decimalValue()));
        assertEquals(tx.get("payments").get(0).get("fromAddress").asText(), first.get("receiverAddress").asText());
        assertEquals("returned", first.get("reason").asText());
        assertTrue(List.of(0, 2).contains(first.get("status").asInt()), "pending, or already broadcast by the payouts");
    }

    @Test
    void aRefundLeavesTheTreasuryOnTheSandboxChainAndCompletesAtItsConfirmations() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(2, 2));
        String id = paid(m, "100");
        String refundId = refund(m, id, "{\"amount\":100,\"gasFeePayer\":\"merchant\"}").statusCode(201).extract()
                .as(JsonNode.class).get(0).get("refundID").asText();

        JsonNode broadcast = await(m, id, tx -> tx.get("refunds").get(0).get("status").asInt() == 2);
        String hash = broadcast.get("refunds").get(0).get("txnHash").asText();
        assertTrue(hash.length() > 10, "the sandbox payout has a transaction hash");
        mine(m, "bitcoin", 1);
        await(m, id, tx -> tx.get("refunds").get(0).get("confirmations").asInt() == 1);
        assertEquals(2, Fixtures.get(apiKey(m), id).get("refunds").get(0).get("status").asInt());
        mine(m, "bitcoin", 1);
        JsonNode completed = await(m, id, tx -> tx.get("refunds").get(0).get("status").asInt() == 1);
        assertTrue(completed.get("refunds").get(0).get("completedAt").isTextual());

        List<OutboxEvent> events = outbox(refundId);
        assertEquals(List.of("refund.created", "refund.broadcast", "refund.completed"),
                events.stream().map(e -> e.eventType).toList());
        assertTrue(events.stream().allMatch(e -> Topics.REFUNDS.equals(e.topic)));
        List<Integer> versions = new ArrayList<>();
        for (OutboxEvent event : events) {
            JsonNode data = CloudEvent.parse(event.payload).data();
            versions.add(data.get("version").asInt());
            assertEquals(id, data.get("transactionID").asText());
            assertEquals(m.accountId(), data.get("accountID").asText());
        }
        assertEquals(List.of(1, 2, 3), versions);
        JsonNode done = CloudEvent.parse(events.get(2).payload).data();
        assertEquals(hash, done.get("txnHash").asText());
        assertEquals(0, new BigDecimal("100").compareTo(done.get("amountUSD").decimalValue()));
        // everything is refunded now
        refund(m, id, "{\"amount\":1}").statusCode(409).body("code", equalTo("refund_exceeds_paid"));
    }

    @Test
    void severalPaymentRequestsAreRefundedOldestFirstToTheirOwnSenders() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.0012", 1);
        await(m, id, tx -> tx.get("paymentStatus").asInt() == 3);
        JsonNode second = Fixtures.tree(Fixtures.publishable(m).contentType(ContentType.JSON)
                .body("{\"asset\":\"USDC\",\"network\":\"polygon\"}").when().post("/transaction/" + id + "/payment")
                .then().statusCode(201).extract().asString());
        transfer(m, "polygon", "USDC", second.get("address").asText(), "40", 1);
        JsonNode paid = await(m, id, tx -> tx.get("status").asInt() == 1);

        JsonNode legs = refund(m, id, "{\"amount\":80,\"gasFeePayer\":\"merchant\"}").statusCode(201).extract()
                .as(JsonNode.class);
        // the fee of a token transfer is the native fee at the native asset's rate: 0.00001 POL × 0.5 USD, in USDC
        JsonNode usdcLeg = Fixtures.get(apiKey(m), id).get("refunds").get(1);
        assertEquals(0, new BigDecimal("0.000005").compareTo(usdcLeg.get("gasFee").decimalValue()));
        assertEquals(2, legs.size(), "60 USD from the BTC request, then 20 USD from the USDC one");
        assertEquals("0.00120000", legs.get(0).get("assetAmount").asText());
        assertEquals("20.000000", legs.get(1).get("assetAmount").asText());
        JsonNode refunds = Fixtures.get(apiKey(m), id).get("refunds");
        assertEquals(paid.get("payments").get(0).get("fromAddress").asText(),
                refunds.get(0).get("receiverAddress").asText());
        assertEquals(paid.get("payments").get(1).get("fromAddress").asText(),
                refunds.get(1).get("receiverAddress").asText());
        assertEquals("polygon", refunds.get(1).get("cryptoNetwork").asText());
        assertEquals(paid.get("payments").get(1).get("paymentRequestID").asText(),
                refunds.get(1).get("paymentRequestID").asText());
    }

    @Test
    void refusalsHaveTheirCodes() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        String unpaid = create(apiKey(m), body("100", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        refund(m, unpaid, "{\"amount\":10}").statusCode(409).body("code", equalTo("invalid_state"));

        String id = paid(m, "100");
        refund(m, id, "{\"amount\":0.40}").statusCode(409).body("code", equalTo("refund_below_gas_fee"));
        refund(m, id, "{\"amount\":0}").statusCode(400).body("errors.field", hasItem("amount"));
        refund(m, id, "{\"amount\":-5}").statusCode(400).body("errors.field", hasItem("amount"));
        refund(m, id, "{}").statusCode(400).body("errors.field", hasItem("amount"));
        refund(m, id, "{\"amount\":5,\"gasFeePayer\":\"platform\"}").statusCode(400)
                .body("errors.field", hasItem("gasFeePayer"));
        refund(m, UUID.randomUUID().toString(), "{\"amount\":5}").statusCode(404);
        // another account in the path is 403; a read-only key may not refund
        Fixtures.apiKey(m).contentType(ContentType.JSON).body("{\"amount\":5}")
                .when().post("/account/" + UUID.randomUUID() + "/transaction/" + id + "/refund")
                .then().statusCode(403);
        Fixtures.apiKey(UUID.fromString(m.accountId()), IdentityClaims.ROLE_READ_ONLY, m.merchantId())
                .contentType(ContentType.JSON).body("{\"amount\":5}")
                .when().post("/account/" + m.accountId() + "/transaction/" + id + "/refund").then().statusCode(403);
        Fixtures.publishable(m).contentType(ContentType.JSON).body("{\"amount\":5}")
                .when().post("/account/" + m.accountId() + "/transaction/" + id + "/refund").then().statusCode(403);

        MerchantConfiguration closed = merchant(c -> c.minConfirms(1, 1).refundWindowHours(0));
        String late = paid(closed, "100");
        refund(closed, late, "{\"amount\":10}").statusCode(409).body("code", equalTo("refund_window_closed"));
        assertEquals(0, Fixtures.get(apiKey(m), id).get("refunds").size(), "no refusal stored anything");
    }

    @Test
    void parallelRefundsNeverExceedWhatWasReceived() throws Exception {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        String id = paid(m, "100");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(() -> refund(m, id, "{\"amount\":10,\"gasFeePayer\":\"merchant\"}").extract().statusCode());
        }
        List<Integer> statuses = new ArrayList<>();
        for (Future<Integer> answer : pool.invokeAll(calls)) {
            statuses.add(answer.get());
        }
        pool.shutdown();
        assertEquals(10, statuses.stream().filter(s -> s == 201).count(), statuses.toString());
        assertEquals(10, statuses.stream().filter(s -> s == 409).count(), statuses.toString());
        BigDecimal refunded = QuarkusTransaction.requiringNew().call(() -> Refund.<Refund>list("transactionId",
                UUID.fromString(id)).stream().map(r -> r.grossCrypto).reduce(BigDecimal.ZERO, BigDecimal::add));
        assertEquals(0, new BigDecimal("0.002").compareTo(refunded), "exactly what was received, never more");
    }

    @Test
    void aCleanCancelRefundsReceivedFundsAndAForfeitKeepsThem() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(2, 2));
        JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        // 0.0005 confirmed and 0.0003 still confirming
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.0005", 2);
        transfer(m, "bitcoin", "BTC", created.get("address").asText(), "0.0003", 1);
        await(m, id, tx -> tx.get("payments").get(0).get("transfers").size() == 2);
        JsonNode cancelled = Fixtures.tree(apiKey(m).contentType(ContentType.JSON)
                .body("{\"reason\":\"out of stock\"}").when().patch("/transaction/" + id + "/cancel")
                .then().statusCode(200).extract().asString());
        assertEquals(-2, cancelled.get("status").asInt());
        JsonNode legs = cancelled.get("refunds");
        assertEquals(1, legs.size());
        assertEquals(0, new BigDecimal("0.0008").compareTo(legs.get(0).get("cryptoAmount").decimalValue()),
                "confirmed and confirming funds, at the locked rate, no gas deducted");
        assertEquals("merchant", legs.get(0).get("gasFeePayer").asText());
        assertEquals("out of stock", legs.get(0).get("reason").asText());
        // the leg waits for the confirming funds, then goes out
        mine(m, "bitcoin", 1);
        await(m, id, tx -> tx.get("refunds").get(0).get("status").asInt() == 2);

        JsonNode other = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
        String forfeitId = other.get("transactionId").asText();
        transfer(m, "bitcoin", "BTC", other.get("address").asText(), "0.0005", 2);
        await(m, forfeitId, tx -> tx.get("paymentStatus").asInt() == 3);
        JsonNode forfeited = Fixtures.tree(apiKey(m).contentType(ContentType.JSON).body("{\"forfeit\":true}")
                .when().patch("/transaction/" + forfeitId + "/cancel").then().statusCode(200).extract().asString());
        assertEquals(-4, forfeited.get("status").asInt());
        assertEquals(0, forfeited.get("refunds").size());
    }

    @Test
    void theOperatorMovesALegPaidOutByHand() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        String id = paid(m, "100");
        String refundId = refund(m, id, "{\"amount\":10}").statusCode(201).extract().as(JsonNode.class).get(0)
                .get("refundID").asText();
        // the payout job may broadcast it first on the sandbox chain; either way a completed leg stays completed
        io.restassured.RestAssured.given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"status\":1}").when().patch("/operator/refunds/" + UUID.randomUUID())
                .then().statusCode(404);
        io.restassured.RestAssured.given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"status\":2}").when().patch("/operator/refunds/" + refundId)
                .then().statusCode(400).body("errors.field", hasItem("txnHash"));
        io.restassured.RestAssured.given().auth().oauth2(TestTokens.admin(UUID.fromString(m.accountId())))
                .contentType(ContentType.JSON).body("{\"status\":1}").when().patch("/operator/refunds/" + refundId)
                .then().statusCode(403);
        JsonNode failed = io.restassured.RestAssured.given().auth().oauth2(TestTokens.operator())
                .contentType(ContentType.JSON).body("{\"status\":-1,\"reason\":\"address unreachable\"}")
                .when().patch("/operator/refunds/" + refundId).then().statusCode(200).extract().as(JsonNode.class);
        assertEquals(-1, failed.get("status").asInt());
        assertEquals("address unreachable", failed.get("failureReason").asText());
        io.restassured.RestAssured.given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"status\":1}").when().patch("/operator/refunds/" + refundId)
                .then().statusCode(409).body("code", equalTo("invalid_state"));
        // a failed leg gives its crypto back to the cap: the whole amount is refundable again
        refund(m, id, "{\"amount\":100,\"gasFeePayer\":\"merchant\"}").statusCode(201);
    }

    /**
     * A leg whose payout the treasury has signed (RefundPayouts commits it before sending) may be on the chain: the
     * operator may only mark it broadcast with that payout's hash. Each move runs in a transaction that puts the leg
     * in that state, holds it (so the payout job skips it) and rolls back.
     */
    @Test
    void aLegWhosePayoutIsSignedOnlyMovesToBroadcastWithItsOwnHash() throws Exception {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        String id = paid(m, "100");
        UUID leg = UUID.fromString(refund(m, id, "{\"amount\":10}").statusCode(201).extract().as(JsonNode.class).get(0)
                .get("refundID").asText());
        String signed = "0x" + "ab".repeat(32);

        assertEquals(409, moveWhileSigned(leg, signed, -1, null), "failed: its crypto would be refundable again");
        assertEquals(409, moveWhileSigned(leg, signed, 1, null), "completed by hand");
        assertEquals(409, moveWhileSigned(leg, signed, 2, "0x" + "cd".repeat(32)), "another payout's hash");
        assertEquals(2, moveWhileSigned(leg, signed, 2, signed.toUpperCase().replace("0X", "0x")),
                "broadcast with the signed payout's own hash");
    }

    /** The leg's status after the operator's move, or the refusal's HTTP status. */
    private int moveWhileSigned(UUID leg, String signed, int status, String hash) throws Exception {
        transactions.begin();
        try {
            em.createNativeQuery("select id from refund where id = ?1 for update").setParameter(1, leg)
                    .getResultList();
            em.createNativeQuery("update refund set status = 0, payout_raw = '0xf86c01', txn_hash = ?2, "
                    + "broadcast_at = null where id = ?1").setParameter(1, leg).setParameter(2, signed)
                    .executeUpdate();
            return refunds.operatorMove(leg.toString(), status, hash, "by hand").status;
        } catch (ApiException refused) {
            return refused.status();
        } finally {
            transactions.rollback();
        }
    }

    private static ValidatableResponse refund(MerchantConfiguration m, String id, String body) {
        return apiKey(m).contentType(ContentType.JSON).body(body)
                .when().post("/account/" + m.accountId() + "/transaction/" + id + "/refund").then();
    }

    private List<OutboxEvent> outbox(String key) {
        return QuarkusTransaction.requiringNew().call(() -> em
                .createQuery("from OutboxEvent e where e.messageKey = ?1 order by e.seq", OutboxEvent.class)
                .setParameter(1, key).getResultList());
    }
}
