package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.await;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.outbox.OutboxEvent;
import dev.cryptopay.support.testing.TestTokens;
import dev.cryptopay.transaction.screening.ScreeningLists;
import dev.cryptopay.transaction.screening.ScreeningResult.Category;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Compliance inside transaction-service (docs/transactions.md "Compliance", docs/decisions.md §59–§63): the screening
 * list, the trigger table with the account's autoRefundConfig switches on and off, holds and their release or
 * refund, and the custodial thresholds. Rates: BTC 50,000 USD, so 100 USD is 0.002 BTC; the sandbox gas fee is
 * 0.00001 BTC.
 */
@QuarkusTest
class ComplianceTest {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String BECH32 = "023456789acdefghjklmnpqrstuvwxyz";

    @Inject
    EntityManager em;

    @Inject
    ScreeningLists lists;

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @BeforeEach
    void rates() {
        Fixtures.rate("BTC", "50000", null);
        status(true);
    }

    @Test
    void listEntriesMatchEvmAddressesWithoutCaseAndOthersExactly() throws Exception {
        String evm = "0x" + hex(40).toUpperCase().replace("X", "x");
        String base58 = "mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef";
        operator().body("""
                {"entries":[
                 {"network":"ethereum","address":"%s","category":"sanctioned","source":"sdn-1"},
                 {"network":"*","address":"%s","category":"fraud","source":"case-7"},
                 {"network":"bitcoin","address":"%s","category":"custodial-exchange","exchangeName":"Exchange A",
                  "source":"ex-1"}]}""".formatted(evm, evm.toLowerCase().replace("0x", "0x"), base58))
                .when().put("/operator/screening/lists/unit-list").then().statusCode(200)
                .body("entryCount", equalTo(3));
        // the worst category wins; the checksum spelling does not matter on an EVM network
        assertEquals(Category.SANCTIONED, lists.screen("ethereum", evm.toLowerCase()).category());
        assertEquals("unit-list:sdn-1", lists.screen("ethereum", evm.toLowerCase()).source());
        // the * entry applies on every EVM network
        assertEquals(Category.FRAUD, lists.screen("polygon", evm).category());
        // bitcoin addresses compare exactly
        assertEquals(Category.CUSTODIAL_EXCHANGE, lists.screen("bitcoin", base58).category());
        assertEquals("Exchange A", lists.screen("bitcoin", base58).exchangeName());
        assertEquals(Category.CLEAR, lists.screen("bitcoin", base58.toLowerCase()).category());

        JsonNode page = Fixtures.tree(operator().when().get("/operator/screening/entries?list=unit-list&limit=2&page=1")
                .then().statusCode(200).extract().asString());
        assertEquals(3, page.at("/metadata/totalCount").asInt());
        assertEquals(2, page.get("entries").size());
        // replacing the list drops what it no longer names
        operator().body("{\"entries\":[{\"network\":\"bitcoin\",\"address\":\"" + base58
                + "\",\"category\":\"high-risk\",\"source\":\"r-1\"}]}")
                .when().put("/operator/screening/lists/unit-list").then().statusCode(200).body("entryCount", equalTo(1));
        assertEquals(Category.CLEAR, lists.screen("ethereum", evm).category());
        assertEquals(Category.HIGH_RISK, lists.screen("bitcoin", base58).category());
        // invalid entries are a 400 naming each
        operator().body("{\"entries\":[{\"network\":\"moon\",\"address\":\"x\",\"category\":\"bad\",\"source\":\"s\"},"
                + "{\"network\":\"bitcoin\",\"address\":\"" + base58 + "\",\"category\":\"custodial-exchange\","
                + "\"source\":\"s\"}]}")
                .when().put("/operator/screening/lists/unit-list").then().statusCode(400);
        // operator only
        apiKey(merchant(c -> c)).when().get("/operator/screening/entries?limit=1&page=1").then().statusCode(403);
    }

    @Test
    void aCleanSenderPassesAndTheTransactionSucceeds() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        String id = pay(m, "100", address(), "0.002");
        JsonNode tx = await(m, id, t -> t.get("status").asInt() == 1);
        assertTrue(tx.at("/payments/0/fraudPass").asBoolean());
        assertFalse(tx.at("/compliance/heldForReview").asBoolean());
        assertEquals(0, tx.at("/compliance/resolutionLogs").size());
    }

    @Test
    void aSanctionedSenderIsRefundedWithTheSwitchOn() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1).autoRefund(Map.of("sanction", true)));
        String sender = listed("sanctioned", null);
        String id = pay(m, "100", sender, "0.002");
        JsonNode tx = await(m, id, t -> t.get("status").asInt() == -2);
        assertFalse(tx.at("/payments/0/fraudPass").asBoolean());
        assertEquals(1, tx.get("refunds").size());
        assertEquals(sender, tx.at("/refunds/0/receiverAddress").asText());
        assertEquals(0, new BigDecimal("0.002").compareTo(tx.at("/refunds/0/cryptoAmount").decimalValue()));
        assertEquals("merchant", tx.at("/refunds/0/gasFeePayer").asText());
        JsonNode log = tx.at("/compliance/resolutionLogs/0");
        assertEquals("sanction", log.get("trigger").asText());
        assertEquals("refunded", log.get("outcome").asText());
        assertEquals("autoRefundConfig.sanction", log.get("rule").asText());
        assertEquals("system", log.get("actor").asText());
        List<String> types = eventTypes(id);
        assertFalse(types.contains("transaction.success"), types.toString());
        assertTrue(types.contains("transaction.cancelled"), types.toString());
    }

    @Test
    void aSanctionedSenderIsHeldWithTheSwitchOffUntilTheOperatorReleasesIt() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1).autoRefund(Map.of("sanction", false)));
        String id = pay(m, "100", listed("sanctioned", null), "0.002");
        JsonNode held = await(m, id, t -> t.at("/compliance/heldForReview").asBoolean());
        assertEquals(0, held.get("status").asInt());
        assertEquals(1, held.get("paymentStatus").asInt(), "paid, yet held");
        assertEquals("held", held.at("/compliance/resolutionLogs/0/outcome").asText());
        assertTrue(held.get("refunds").isEmpty());
        // no tipping off: the customer's view shows neither the hold nor the logs
        JsonNode customer = Fixtures.get(publishable(m), id);
        assertTrue(customer.at("/compliance/heldForReview").isNull());
        assertTrue(customer.at("/compliance/resolutionLogs").isNull());
        // the merchant can neither cancel nor refund it meanwhile
        apiKey(m).contentType(ContentType.JSON).body("{}").when().patch("/transaction/" + id + "/cancel").then()
                .statusCode(409);
        assertEquals(List.of("transaction.created", "transaction.payment_detected", "transaction.held"),
                eventTypes(id));
        JsonNode list = Fixtures.tree(operator().when().get("/operator/transactions/held?limit=100&page=1&accountID="
                + m.accountId()).then().statusCode(200).extract().asString());
        assertTrue(list.get("transactions").findValuesAsText("transactionID").contains(id));

        JsonNode released = Fixtures.tree(operator().body("{\"reason\":\"false positive\"}")
                .when().post("/operator/transactions/" + id + "/release").then().statusCode(200).extract().asString());
        assertEquals(1, released.get("status").asInt());
        assertFalse(released.at("/compliance/heldForReview").asBoolean());
        JsonNode log = released.at("/compliance/resolutionLogs/1");
        assertEquals("released", log.get("outcome").asText());
        assertTrue(log.get("actor").asText().startsWith("operator:"), log.toString());
        assertEquals(List.of("transaction.created", "transaction.payment_detected", "transaction.held",
                "transaction.released", "transaction.success"), eventTypes(id));
        // released once: a second release is a conflict
        operator().body("{}").when().post("/operator/transactions/" + id + "/release").then().statusCode(409);
    }

    @Test
    void aHeldFraudSenderIsRefundedByTheOperator() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        String sender = listed("fraud", null);
        String id = pay(m, "100", sender, "0.002");
        await(m, id, t -> t.at("/compliance/heldForReview").asBoolean());
        JsonNode refunded = Fixtures.tree(operator().body("{\"reason\":\"confirmed fraud\"}")
                .when().post("/operator/transactions/" + id + "/refund").then().statusCode(200).extract().asString());
        assertEquals(-2, refunded.get("status").asInt());
        assertEquals(1, refunded.get("refunds").size());
        assertEquals(sender, refunded.at("/refunds/0/receiverAddress").asText());
        JsonNode log = refunded.at("/compliance/resolutionLogs/1");
        assertEquals("fraud", log.get("trigger").asText());
        assertEquals("refunded", log.get("outcome").asText());
        List<String> types = eventTypes(id);
        assertFalse(types.contains("transaction.success"), types.toString());
    }

    @Test
    void aHighRiskSenderIsRefundedWithTheAmlSwitchOn() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1).autoRefund(Map.of("aml", true)));
        String id = pay(m, "100", listed("high-risk", null), "0.002");
        JsonNode tx = await(m, id, t -> t.get("status").asInt() == -2);
        assertEquals("aml", tx.at("/compliance/resolutionLogs/0/trigger").asText());
    }

    @Test
    void anOverpaymentRefundsTheExcessAfterSuccessWithTheSwitchOnAndIsHeldWithItOff() {
        MerchantConfiguration on = merchant(c -> c.minConfirms(1, 1).autoRefund(Map.of("overpayment", true)));
        String id = pay(on, "100", address(), "0.003");
        JsonNode tx = await(on, id, t -> t.get("status").asInt() == 1 && t.get("refunds").size() == 1);
        assertEquals(4, tx.get("paymentStatus").asInt());
        // 50 USD too much = 0.001 BTC, less the 0.00001 network fee the customer pays
        assertEquals(0, new BigDecimal("0.00099").compareTo(tx.at("/refunds/0/cryptoAmount").decimalValue()));
        assertEquals("overpayment", tx.at("/compliance/resolutionLogs/0/trigger").asText());
        assertEquals("refunded", tx.at("/compliance/resolutionLogs/0/outcome").asText());
        List<String> types = eventTypes(id);
        assertTrue(types.indexOf("transaction.success") >= 0, types.toString());

        MerchantConfiguration off = merchant(c -> c.minConfirms(1, 1));
        String heldId = pay(off, "100", address(), "0.003");
        JsonNode held = await(off, heldId, t -> t.at("/compliance/heldForReview").asBoolean());
        assertEquals(0, held.get("status").asInt());
        assertEquals("overpayment", held.at("/compliance/resolutionLogs/0/trigger").asText());
        assertTrue(held.get("refunds").isEmpty());
        assertFalse(eventTypes(heldId).contains("transaction.success"));
    }

    @Test
    void aProviderOutOfServiceIsTheVendorStatusTrigger() {
        MerchantConfiguration off = merchant(c -> c.minConfirms(1, 1));
        MerchantConfiguration on = merchant(c -> c.minConfirms(1, 1).autoRefund(Map.of("vendorStatus", true)));
        JsonNode createdOff = create(apiKey(off), body("100", "USD", "BTC", "bitcoin"));
        JsonNode createdOn = create(apiKey(on), body("100", "USD", "BTC", "bitcoin"));
        try {
            status(false);
            transfer(off, createdOff.get("address").asText(), address(), "0.002");
            transfer(on, createdOn.get("address").asText(), address(), "0.002");
            JsonNode held = await(off, createdOff.get("transactionId").asText(),
                    t -> t.at("/compliance/heldForReview").asBoolean());
            assertEquals("vendor-status", held.at("/compliance/resolutionLogs/0/trigger").asText());
            assertTrue(held.at("/payments/0/fraudPass").isNull(), "not screened");
            JsonNode refunded = await(on, createdOn.get("transactionId").asText(), t -> t.get("status").asInt() == -2);
            assertEquals("vendor-status", refunded.at("/compliance/resolutionLogs/0/trigger").asText());
        } finally {
            status(true);
        }
    }

    @Test
    void aCustodialWalletUsesTheCustodialThresholdsAtTheirEdge() {
        MerchantConfiguration m = merchant(c -> c.kycEnabled(true).kycThreshold(new BigDecimal("1000"))
                .kycThresholdCustodial(new BigDecimal("50")));
        String exchange = listed("custodial-exchange", "Exchange B");
        // at the custodial threshold: verification first (0 → -3), no address
        JsonNode atEdge = payWith(m, "50", exchange);
        assertEquals(-3, atEdge.get("status").asInt());
        assertTrue(atEdge.get("address").isNull());
        assertTrue(atEdge.get("requiredFields").size() > 0);
        // just below it: the payment request opens as usual
        JsonNode below = payWith(m, "49.99", exchange);
        assertEquals(0, below.get("status").asInt());
        assertTrue(below.get("address").isTextual());
        // a self-custody wallet at 100 stays under the self-custody threshold of 1000
        JsonNode selfCustody = payWith(m, "100", address());
        assertEquals(0, selfCustody.get("status").asInt());
        assertTrue(selfCustody.get("address").isTextual());
        JsonNode tx = Fixtures.get(apiKey(m), atEdge.get("transactionId").asText());
        assertTrue(tx.at("/compliance/kycTriggered").asBoolean());
        assertEquals("custodial", tx.at("/compliance/resolutionLogs/0/trigger").asText());
        assertEquals("verification-required", tx.at("/compliance/resolutionLogs/0/outcome").asText());
    }

    /** The custodial travel rule asks for the paying wallet up front, as the verification will demand it (§66). */
    @Test
    void aCustodialWalletAtTheCustodialTravelRuleThresholdIsAskedForItsOriginatorWallet() {
        MerchantConfiguration m = merchant(c -> c.travelRulesCustodial(Map.of("BE", new BigDecimal("50"))));
        JsonNode atEdge = payWith(m, "50", listed("custodial-exchange", "Exchange C"));
        assertEquals(-3, atEdge.get("status").asInt());
        List<String> required = new java.util.ArrayList<>();
        atEdge.get("requiredFields").forEach(f -> required.add(f.asText()));
        assertTrue(required.contains("originatorWallet"), required.toString());
    }

    @Test
    void fundsFromAnUndeclaredCustodialAddressAboveTheCustodialThresholdAreHeld() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1).kycEnabled(true)
                .kycThreshold(new BigDecimal("1000")).kycThresholdCustodial(new BigDecimal("50")));
        String id = pay(m, "100", listed("custodial-exchange", "Exchange C"), "0.002");
        JsonNode held = await(m, id, t -> t.at("/compliance/heldForReview").asBoolean());
        JsonNode log = held.at("/compliance/resolutionLogs/0");
        assertEquals("custodial", log.get("trigger").asText());
        assertEquals("kycThresholdCustodial", log.get("rule").asText());
        assertEquals(0, new BigDecimal("50").compareTo(log.get("threshold").decimalValue()));
        assertTrue(held.at("/payments/0/fraudPass").asBoolean(), "a custodial exchange is no fraud");
        // below the custodial threshold the same sender passes
        String small = pay(m, "40", listed("custodial-exchange", "Exchange C"), "0.0008");
        await(m, small, t -> t.get("status").asInt() == 1);
    }

    // --- helpers ---

    /** Creates a transaction of {@code usd} in BTC and pays {@code btc} to it from {@code sender}. */
    private static String pay(MerchantConfiguration m, String usd, String sender, String btc) {
        JsonNode created = create(apiKey(m), body(usd, "USD", "BTC", "bitcoin"));
        transfer(m, created.get("address").asText(), sender, btc);
        return created.get("transactionId").asText();
    }

    /** Creates a transaction of {@code usd} in BTC and requests a payment naming {@code wallet}. */
    private static JsonNode payWith(MerchantConfiguration m, String usd, String wallet) {
        JsonNode created = create(apiKey(m), body(usd, "USD", "BTC", "bitcoin"));
        String id = created.get("transactionId").asText();
        JsonNode answer = Fixtures.tree(publishable(m).contentType(ContentType.JSON)
                .body("{\"asset\":\"BTC\",\"network\":\"bitcoin\",\"wallet\":\"" + wallet + "\"}")
                .when().post("/transaction/" + id + "/payment").then().statusCode(201).extract().asString());
        return answer;
    }

    private static void transfer(MerchantConfiguration m, String to, String from, String amount) {
        apiKey(m).contentType(ContentType.JSON)
                .body("{\"network\":\"bitcoin\",\"asset\":\"BTC\",\"toAddress\":\"" + to + "\",\"fromAddress\":\""
                        + from + "\",\"amount\":\"" + amount + "\",\"confirmations\":1}")
                .when().post("/sandbox/chain/transfers").then().statusCode(201);
    }

    /** A fresh bitcoin address added to a list under {@code category}. */
    private static String listed(String category, String exchange) {
        String address = address();
        operator().body("{\"entries\":[{\"network\":\"bitcoin\",\"address\":\"" + address + "\",\"category\":\""
                + category + "\"" + (exchange == null ? "" : ",\"exchangeName\":\"" + exchange + "\"")
                + ",\"source\":\"t-" + address.substring(4, 12) + "\"}]}")
                .when().post("/operator/screening/lists/compliance-test/entries").then().statusCode(200);
        return address;
    }

    private static String address() {
        StringBuilder b = new StringBuilder("tb1q");
        for (int i = 0; i < 38; i++) {
            b.append(BECH32.charAt(RANDOM.nextInt(BECH32.length())));
        }
        return b.toString();
    }

    private static String hex(int digits) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < digits; i++) {
            b.append("0123456789abcdef".charAt(RANDOM.nextInt(16)));
        }
        return b.toString();
    }

    private static void status(boolean available) {
        operator().body("{\"available\":" + available + ",\"reason\":\"test\"}").when()
                .put("/operator/screening/status").then().statusCode(200).body("available", equalTo(available));
    }

    private static io.restassured.specification.RequestSpecification operator() {
        return given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON);
    }

    private List<String> eventTypes(String transactionId) {
        return QuarkusTransaction.requiringNew().call(() -> em
                .createQuery("from OutboxEvent e where e.messageKey = ?1 order by e.seq", OutboxEvent.class)
                .setParameter(1, transactionId).getResultList()).stream().map(e -> e.eventType).toList();
    }
}
