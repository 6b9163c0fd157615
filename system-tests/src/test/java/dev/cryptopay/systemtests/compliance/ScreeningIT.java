package dev.cryptopay.systemtests.compliance;

import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.ALL_OFF;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.ALL_ON;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.address;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.eventTypes;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.listed;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.operator;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.providerAvailable;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.tree;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.compliance.ComplianceFixtures.Shop;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Screening and the trigger table through the gateway (docs/transactions.md "Compliance", docs/decisions.md
 * §59–§63): the operator's screening list, a payer's sender and declared wallet screened, each trigger with the
 * account's autoRefundConfig switch on (automatic refund) and off (hold), the provider out of service, and the
 * custodial thresholds at their edge.
 */
class ScreeningIT {

    private static Shop on;
    private static Shop off;

    @BeforeAll
    static void setUp() {
        ComplianceFixtures.rates();
        on = ComplianceFixtures.shop("Screening On", ALL_ON, null);
        off = ComplianceFixtures.shop("Screening Off", ALL_OFF, null);
    }

    @Test
    void theOperatorLoadsAndReadsAScreeningListAndNoOneElseCan() {
        String evm = "0x8589427373D6D84E98730D7795D8f6f8731FDA16";
        operator().body("{\"entries\":[{\"network\":\"*\",\"address\":\"" + evm + "\",\"category\":\"sanctioned\","
                + "\"source\":\"sdn-1\"}]}").when().put("/operator/screening/lists/it-screening-list")
                .then().statusCode(200).body("entryCount", equalTo(1));
        // found in any case: EVM addresses compare without case
        JsonNode page = tree(operator().when().get("/operator/screening/entries?limit=10&page=1&list=it-screening-list"
                + "&address=" + evm.toLowerCase()).then().statusCode(200).extract().asString());
        assertEquals(1, page.at("/metadata/totalCount").asInt());
        assertEquals("sanctioned", page.at("/entries/0/category").asText());
        assertEquals(evm, page.at("/entries/0/address").asText());
        on.asApiKey().when().get("/operator/screening/entries?limit=10&page=1").then()
                .statusCode(org.hamcrest.Matchers.anyOf(equalTo(401), equalTo(403)));
        operator().body("{\"entries\":[{\"network\":\"bitcoin\",\"address\":\"x\",\"category\":\"unknown\","
                + "\"source\":\"s\"}]}").when().put("/operator/screening/lists/it-screening-list").then()
                .statusCode(400);
    }

    @Test
    void aCleanPayerPassesScreening() {
        String wallet = address();
        JsonNode created = on.create("100");
        String id = created.get("transactionId").asText();
        JsonNode payment = on.payWith(id, wallet);
        on.transfer(payment.get("address").asText(), wallet, payment.get("assetAmount").asText());
        JsonNode paid = on.await(id, tx -> tx.get("status").asInt() == 1);
        JsonNode second = paid.get("payments").get(1);
        assertTrue(second.get("fraudPass").asBoolean(), "clean declared wallet and sender");
        assertFalse(paid.at("/compliance/heldForReview").asBoolean());
        assertEquals(0, paid.at("/compliance/resolutionLogs").size());
    }

    @Test
    void aSanctionedPayerIsRefundedWithTheSwitchOnAndHeldWithItOff() {
        String sender = listed("sanctioned", null);
        String refundedId = on.pay("100", sender, "0.002");
        JsonNode refunded = on.await(refundedId, tx -> tx.get("status").asInt() == -2);
        assertFalse(refunded.at("/payments/0/fraudPass").asBoolean());
        assertEquals(sender, refunded.at("/refunds/0/receiverAddress").asText());
        assertEquals("sanction", refunded.at("/compliance/resolutionLogs/0/trigger").asText());
        assertEquals("refunded", refunded.at("/compliance/resolutionLogs/0/outcome").asText());
        String legId = refunded.at("/refunds/0/refundID").asText();
        assertTrue(eventTypes(Topics.REFUNDS, legId, t -> !t.isEmpty()).contains("refund.created"));
        List<String> types = eventTypes(Topics.TRANSACTIONS, refundedId, t -> t.contains("transaction.cancelled"));
        assertFalse(types.contains("transaction.success"), types.toString());

        String heldId = off.pay("100", listed("sanctioned", null), "0.002");
        JsonNode held = off.await(heldId, tx -> tx.at("/compliance/heldForReview").asBoolean());
        assertEquals(0, held.get("status").asInt());
        assertEquals("held", held.at("/compliance/resolutionLogs/0/outcome").asText());
        List<String> heldTypes = eventTypes(Topics.TRANSACTIONS, heldId, t -> t.contains("transaction.held"));
        assertTrue(heldTypes.contains("transaction.held"), heldTypes.toString());
        assertFalse(heldTypes.contains("transaction.success"), heldTypes.toString());
    }

    @Test
    void fraudAndHighRiskSendersFollowTheirSwitches() {
        JsonNode fraud = on.await(on.pay("100", listed("fraud", null), "0.002"), tx -> tx.get("status").asInt() == -2);
        assertEquals("fraud", fraud.at("/compliance/resolutionLogs/0/trigger").asText());
        JsonNode aml = off.await(off.pay("100", listed("high-risk", null), "0.002"),
                tx -> tx.at("/compliance/heldForReview").asBoolean());
        assertEquals("aml", aml.at("/compliance/resolutionLogs/0/trigger").asText());
    }

    @Test
    void anOverpaymentRefundsOnlyTheExcessAfterSuccessOrIsHeld() {
        JsonNode refunded = on.await(on.pay("100", address(), "0.003"),
                tx -> tx.get("status").asInt() == 1 && tx.get("refunds").size() == 1);
        assertEquals(4, refunded.get("paymentStatus").asInt());
        // 50 USD too much = 0.001 BTC, less the 0.00001 network fee
        assertEquals(0, new BigDecimal("0.00099").compareTo(refunded.at("/refunds/0/cryptoAmount").decimalValue()));
        assertEquals("overpayment", refunded.at("/compliance/resolutionLogs/0/trigger").asText());

        String heldId = off.pay("100", address(), "0.003");
        JsonNode held = off.await(heldId, tx -> tx.at("/compliance/heldForReview").asBoolean());
        assertEquals(0, held.get("status").asInt());
        assertTrue(held.get("refunds").isEmpty());
        assertEquals("overpayment", held.at("/compliance/resolutionLogs/0/trigger").asText());
    }

    @Test
    void aProviderOutOfServiceIsTheVendorStatusTrigger() {
        JsonNode createdOn = on.create("100");
        JsonNode createdOff = off.create("100");
        try {
            providerAvailable(false);
            on.transfer(createdOn.get("address").asText(), address(), "0.002");
            off.transfer(createdOff.get("address").asText(), address(), "0.002");
            JsonNode refunded = on.await(createdOn.get("transactionId").asText(), tx -> tx.get("status").asInt() == -2);
            assertEquals("vendor-status", refunded.at("/compliance/resolutionLogs/0/trigger").asText());
            JsonNode held = off.await(createdOff.get("transactionId").asText(),
                    tx -> tx.at("/compliance/heldForReview").asBoolean());
            assertEquals("vendor-status", held.at("/compliance/resolutionLogs/0/trigger").asText());
            assertTrue(held.at("/payments/0/fraudPass").isNull(), "not screened");
        } finally {
            providerAvailable(true);
        }
        operator().when().get("/operator/screening/status").then().statusCode(200).body("available", equalTo(true));
    }

    @Test
    void aCustodialWalletMeetsTheCustodialThresholdsAtTheirEdge() {
        Shop kyc = ComplianceFixtures.shop("Custodial", ALL_OFF,
                "\"kycEnabled\":true,\"kycThreshold\":1000,\"kycThresholdCustodial\":50");
        String exchange = listed("custodial-exchange", "Example Exchange");

        JsonNode atEdge = kyc.payWith(kyc.create("50").get("transactionId").asText(), exchange);
        assertEquals(-3, atEdge.get("status").asInt());
        assertTrue(atEdge.get("address").isNull());
        assertTrue(atEdge.get("requiredFields").size() > 0);
        JsonNode below = kyc.payWith(kyc.create("49.99").get("transactionId").asText(), exchange);
        assertEquals(0, below.get("status").asInt());
        assertTrue(below.get("address").isTextual());
        JsonNode selfCustody = kyc.payWith(kyc.create("100").get("transactionId").asText(), address());
        assertEquals(0, selfCustody.get("status").asInt(), "the self-custody threshold is 1000");

        JsonNode waiting = kyc.await(atEdge.get("transactionId").asText(), tx -> tx.get("status").asInt() == -3);
        assertEquals("custodial", waiting.at("/compliance/resolutionLogs/0/trigger").asText());
        assertEquals("verification-required", waiting.at("/compliance/resolutionLogs/0/outcome").asText());

        // funds from an undeclared custodial address above the custodial threshold are held
        String undeclared = kyc.pay("100", listed("custodial-exchange", "Example Exchange"), "0.002");
        JsonNode held = kyc.await(undeclared, tx -> tx.at("/compliance/heldForReview").asBoolean());
        assertEquals("custodial", held.at("/compliance/resolutionLogs/0/trigger").asText());
        assertEquals("kycThresholdCustodial", held.at("/compliance/resolutionLogs/0/rule").asText());
    }
}
