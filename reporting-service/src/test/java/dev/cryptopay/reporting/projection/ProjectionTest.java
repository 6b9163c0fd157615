package dev.cryptopay.reporting.projection;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.testing.Api;
import dev.cryptopay.reporting.testing.Await;
import dev.cryptopay.reporting.testing.Events;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The projection on the real test broker and database: events produced to the topics in the documented shapes,
 * duplicated, reordered and with versions left out; the store read back through the reporting endpoints.
 */
@QuarkusTest
class ProjectionTest {

    private static Events events;

    @BeforeAll
    static void producer() {
        events = new Events();
        Api.configure();
    }

    @AfterAll
    static void close() {
        events.close();
    }

    @Test
    void aDuplicatedEventIsAppliedOnce() {
        UUID account = UUID.randomUUID();
        UUID merchant = UUID.randomUUID();
        UUID tx = UUID.randomUUID();
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        events.transaction("transaction.created", Events.transaction(account, merchant, tx, 1, 0, 0, "0", created,
                created));
        String second = events.transaction("transaction.payment_detected", Events.transaction(account, merchant, tx,
                2, 0, 2, "0", created, created.plusSeconds(5)));
        events.send(Topics.TRANSACTIONS, tx.toString(), second);
        events.send(Topics.TRANSACTIONS, tx.toString(), second);
        // a third version after the duplicates shows they were all consumed
        events.transaction("transaction.success", Events.transaction(account, merchant, tx, 3, 1, 1, "100", created,
                created.plusSeconds(10)));

        JsonPath row = awaitTransaction(account, tx, r -> r.getInt("status") == 1);
        assertEquals(1, row.getInt("paymentStatus"));
        assertEquals(List.of(), gapsOf(account, tx));
        assertEquals(1, given().auth().oauth2(TestTokens.admin(account)).queryParam("referenceNumber",
                "ref-" + tx.toString().substring(0, 8)).get("/accounts/" + account + "/transactions")
                .then().statusCode(200).extract().jsonPath().getInt("total"));
    }

    @Test
    void anOlderVersionArrivingLateNeverOverwritesANewerState() {
        UUID account = UUID.randomUUID();
        UUID merchant = UUID.randomUUID();
        UUID tx = UUID.randomUUID();
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ObjectNode v1 = Events.transaction(account, merchant, tx, 1, 0, 0, "0", created, created);
        ObjectNode v2 = Events.transaction(account, merchant, tx, 2, 0, 2, "0", created, created.plusSeconds(5));
        ObjectNode v3 = Events.transaction(account, merchant, tx, 3, 1, 1, "100", created, created.plusSeconds(9));
        v3.set("merchantFees", Events.fees("0.025", "0.30", "deduct", "50", "10"));
        events.transaction("transaction.success", v3);
        JsonPath afterV3 = awaitTransaction(account, tx, r -> r.getInt("status") == 1);
        events.transaction("transaction.created", v1);
        events.transaction("transaction.payment_detected", v2);
        Await.until(() -> gapsOf(account, tx).isEmpty(), () -> "versions 1 and 2 not recorded: " + gapsOf(account, tx));

        JsonPath after = detail(account, tx);
        assertEquals(1, after.getInt("status"));
        assertEquals(1, after.getInt("paymentStatus"));
        assertEquals("0xhash3", after.getString("payments[0].txnHash"));
        assertEquals(3, after.getInt("payments[0].confirmationCount"));
        assertEquals(afterV3.getString("sourceUpdatedAt"), after.getString("sourceUpdatedAt"));
        // fees of the success terms: 100 × 2.5 % + 0.30 = 2.80; platform 100 × 0.5 % + 0.10 = 0.60
        assertEquals(new BigDecimal("2.80"), after.getObject("fees.mdrUSD", BigDecimal.class));
        assertEquals(new BigDecimal("0.60"), after.getObject("fees.platformUSD", BigDecimal.class));
    }

    @Test
    void aMissingVersionIsFlaggedUntilItArrives() {
        UUID account = UUID.randomUUID();
        UUID merchant = UUID.randomUUID();
        UUID tx = UUID.randomUUID();
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        events.transaction("transaction.created", Events.transaction(account, merchant, tx, 1, 0, 0, "0", created,
                created));
        ObjectNode v2 = Events.transaction(account, merchant, tx, 2, 0, 2, "0", created, created.plusSeconds(3));
        ObjectNode v4 = Events.transaction(account, merchant, tx, 4, -2, 0, "0", created, created.plusSeconds(8));
        v4.put("cancellationReason", "changed my mind");
        events.transaction("transaction.cancelled", v4);

        Await.until(() -> gapsOf(account, tx).equals(List.of(2L, 3L)), () -> "gap not listed: " + gapsOf(account, tx));
        assertEquals(-2, detail(account, tx).getInt("status"));
        assertEquals("changed my mind", detail(account, tx).getString("cancellationReason"));

        events.transaction("transaction.payment_detected", v2);
        Await.until(() -> gapsOf(account, tx).equals(List.of(3L)), () -> "version 2 not recorded: " + gapsOf(account, tx));
        assertEquals(-2, detail(account, tx).getInt("status"));
    }

    @Test
    void refundsAreOrderSafeAndIdempotent() {
        UUID account = UUID.randomUUID();
        UUID merchant = UUID.randomUUID();
        UUID tx = UUID.randomUUID();
        UUID refund = UUID.randomUUID();
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        events.transaction("transaction.success", Events.transaction(account, merchant, tx, 1, 1, 1, "100", created,
                created));
        String completed = events.refund("refund.completed", Events.refund(account, merchant, tx, refund, 3, 1, "40",
                created, created.plusSeconds(20)));
        events.refund("refund.created", Events.refund(account, merchant, tx, refund, 1, 0, "40", created, created));
        events.send(Topics.REFUNDS, refund.toString(), completed);
        events.refund("refund.broadcast", Events.refund(account, merchant, tx, refund, 2, 2, "40", created,
                created.plusSeconds(10)));

        Await.until(() -> detail(account, tx).getList("refunds").size() == 1
                && gapsOf(account, refund).isEmpty(), () -> "refund not projected: " + detail(account, tx).prettify());
        JsonPath after = detail(account, tx);
        assertEquals(1, after.getInt("refunds[0].status"));
        assertEquals("0xrefund3", after.getString("refunds[0].txnHash"));
        assertEquals(new BigDecimal("40"), after.getObject("refunds[0].amountUSD", BigDecimal.class));
    }

    @Test
    void amountsStayExactBeyondTwoToTheSixtyFourBaseUnits() {
        UUID account = UUID.randomUUID();
        UUID tx = UUID.randomUUID();
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ObjectNode data = Events.transaction(account, UUID.randomUUID(), tx, 1, 0, 2, "0", created, created);
        // 123,456,789,012.345678901234567891 tokens of 18 decimals: about 1.2·10^29 base units, far above 2^64
        BigDecimal huge = new BigDecimal("123456789012.345678901234567891");
        ((ObjectNode) data.get("payments").get(0)).put("receivedCrypto", huge);
        ((ObjectNode) data.get("payments").get(0)).put("cryptoRatePerUSD", new BigDecimal("0.000000000000000001"));
        events.transaction("transaction.payment_detected", data);

        JsonPath row = awaitTransaction(account, tx, r -> true);
        assertEquals(huge, row.getObject("payments[0].receivedCrypto", BigDecimal.class));
        assertEquals(new BigDecimal("0.000000000000000001"), row.getObject("payments[0].cryptoRatePerUSD",
                BigDecimal.class));
    }

    @Test
    void textLongerThanTheApiAllowsIsStoredRatherThanHoldingTheProjection() {
        UUID account = UUID.randomUUID();
        UUID tx = UUID.randomUUID();
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ObjectNode data = Events.transaction(account, UUID.randomUUID(), tx, 1, 0, 0, "0", created, created);
        data.put("externalMID", "x".repeat(300));
        ((ObjectNode) data.get("amounts")).put("currency", "USDT-ish");
        events.transaction("transaction.created", data);
        JsonPath row = awaitTransaction(account, tx, r -> true);
        assertEquals(300, row.getString("externalMID").length());
        assertEquals("USDT-ish", row.getString("currency"));
    }

    @Test
    void theDetailShowsTheComplianceStateOfTheLatestEventToApiKeysOnly() {
        UUID account = UUID.randomUUID();
        UUID merchant = UUID.randomUUID();
        UUID tx = UUID.randomUUID();
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        events.transaction("transaction.created", Events.transaction(account, merchant, tx, 1, -3, 0, "0", created,
                created));
        JsonPath before = awaitTransaction(account, tx, r -> r.getInt("status") == -3);
        assertEquals(List.of(), before.getList("compliance.resolutionLogs"));
        assertEquals(null, before.getString("compliance.strFilingReference"));

        ObjectNode v2 = Events.transaction(account, merchant, tx, 2, 0, 0, "0", created, created.plusSeconds(5));
        ObjectNode compliance = (ObjectNode) v2.get("compliance");
        compliance.put("heldForReview", true);
        compliance.put("strFilingReference", "FIU-2026-0042");
        ObjectNode entry = compliance.putArray("resolutionLogs").addObject();
        entry.put("at", created.toString());
        entry.put("trigger", "str");
        entry.put("rule", "strFiling");
        entry.put("threshold", new BigDecimal("1000.00"));
        entry.put("outcome", "filed");
        entry.put("actor", "operator:ops-1");
        entry.put("detail", "STR filed: FIU-2026-0042");
        events.transaction("transaction.held", v2);

        JsonPath row = awaitTransaction(account, tx, r -> r.getInt("status") == 0);
        assertEquals(Boolean.TRUE, row.getBoolean("compliance.heldForReview"));
        assertEquals("FIU-2026-0042", row.getString("compliance.strFilingReference"));
        assertEquals(1, row.getList("compliance.resolutionLogs").size());
        assertEquals("str", row.getString("compliance.resolutionLogs[0].trigger"));
        assertEquals("filed", row.getString("compliance.resolutionLogs[0].outcome"));
        assertEquals("operator:ops-1", row.getString("compliance.resolutionLogs[0].actor"));
        assertEquals(new BigDecimal("1000.00"), row.getObject("compliance.resolutionLogs[0].threshold",
                BigDecimal.class));
        // reporting is for API keys: a publishable key never reads it
        given().auth().oauth2(TestTokens.claims("pk-" + UUID.randomUUID(), "publishable",
                dev.cryptopay.support.security.IdentityClaims.ROLE_PUBLISHABLE, account).sign(TestTokens.key()))
                .get("/accounts/" + account + "/transactions/" + tx).then().statusCode(403);
    }

    private static JsonPath detail(UUID account, UUID tx) {
        return given().auth().oauth2(TestTokens.admin(account)).get("/accounts/" + account + "/transactions/" + tx)
                .then().statusCode(200).extract().jsonPath();
    }

    private static JsonPath awaitTransaction(UUID account, UUID tx, java.util.function.Predicate<JsonPath> condition) {
        JsonPath[] last = new JsonPath[1];
        Await.until(() -> {
            var response = given().auth().oauth2(TestTokens.admin(account))
                    .get("/accounts/" + account + "/transactions/" + tx);
            if (response.statusCode() != 200) {
                return false;
            }
            last[0] = response.jsonPath();
            return condition.test(last[0]);
        }, () -> "transaction " + tx + " not as expected: " + (last[0] == null ? "absent" : last[0].prettify()));
        return last[0];
    }

    /** The missing versions the reconciliation listing names for one aggregate. */
    static List<Long> gapsOf(UUID account, UUID aggregate) {
        JsonPath gaps = given().auth().oauth2(TestTokens.operator()).queryParam("limit", 1000)
                .queryParam("accountID", account.toString())
                .get("/operator/reporting/gaps").then().statusCode(200).extract().jsonPath();
        List<Object> missing = gaps.getList("gaps.find { it.aggregateID == '" + aggregate + "' }.missingVersions");
        return missing == null ? List.of() : missing.stream().map(v -> ((Number) v).longValue()).toList();
    }
}
