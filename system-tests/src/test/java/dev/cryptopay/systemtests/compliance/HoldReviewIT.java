package dev.cryptopay.systemtests.compliance;

import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.ALL_OFF;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.eventTypes;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.listed;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.operator;
import static dev.cryptopay.systemtests.compliance.ComplianceFixtures.tree;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.compliance.ComplianceFixtures.Shop;
import dev.cryptopay.systemtests.webhooks.WebhookReceiver;
import io.restassured.http.ContentType;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Holds for compliance review through the gateway (docs/decisions.md §59): a held transaction stays at 0 without a
 * success event, is invisible as such to the customer, is listed for the operator, and is released (→ 1,
 * transaction.released then transaction.success) or refunded (→ -2 with refund legs) by the operator.
 */
class HoldReviewIT {

    private static Shop shop;
    private static String publishable;

    @BeforeAll
    static void setUp() {
        ComplianceFixtures.rates();
        shop = ComplianceFixtures.shop("Hold Review", ALL_OFF, null);
        publishable = shop.publishable();
    }

    @Test
    void aHeldTransactionIsReleasedByTheOperatorAndSucceedsThen() throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.answering(200)) {
            given().header("X-Api-Key", shop.account().apiKey()).contentType(ContentType.JSON)
                    .body("{\"name\":\"holds\",\"url\":\"" + receiver.url() + "\",\"events\":[\"transaction.held\","
                            + "\"transaction.released\",\"transaction.success\"]}")
                    .when().post("/accounts/" + shop.account().accountId() + "/webhooks").then().statusCode(201);
            String id = releasedAfterHold();
            // the merchant's webhooks: held, released, success — in that order of the transaction's versions
            Instant deadline = Instant.now().plusSeconds(30);
            java.util.Map<String, Integer> versions = java.util.Map.of();
            while (Instant.now().isBefore(deadline)) {
                versions = receiver.requests().stream().map(r -> tree(r.body()))
                        .filter(body -> id.equals(body.at("/data/transactionID").asText()))
                        .collect(java.util.stream.Collectors.toMap(body -> body.get("type").asText(),
                                body -> body.at("/data/version").asInt(), (a, b) -> a, java.util.TreeMap::new));
                if (versions.size() == 3) {
                    break;
                }
                Thread.sleep(200);
            }
            assertEquals(java.util.Set.of("transaction.held", "transaction.released", "transaction.success"),
                    versions.keySet());
            assertTrue(versions.get("transaction.held") < versions.get("transaction.released")
                    && versions.get("transaction.released") < versions.get("transaction.success"), versions.toString());
        }
    }

    private String releasedAfterHold() {
        String id = shop.pay("100", listed("sanctioned", null), "0.002");
        JsonNode held = shop.await(id, tx -> tx.at("/compliance/heldForReview").asBoolean());
        assertEquals(0, held.get("status").asInt());
        assertEquals(1, held.get("paymentStatus").asInt());
        // the customer sees neither the hold nor the log
        JsonNode customer = tree(given().header("X-Publishable-Key", publishable).when().get("/transaction/" + id)
                .then().statusCode(200).extract().asString());
        assertTrue(customer.at("/compliance/heldForReview").isNull());
        assertTrue(customer.at("/compliance/resolutionLogs").isNull());
        // the merchant cannot cancel it meanwhile
        shop.asApiKey().contentType(ContentType.JSON).body("{}").when().patch("/transaction/" + id + "/cancel")
                .then().statusCode(409);

        JsonNode list = tree(operator().when().get("/operator/transactions/held?limit=100&page=1&accountID="
                + shop.account().accountId()).then().statusCode(200).extract().asString());
        assertTrue(list.get("transactions").findValuesAsText("transactionID").contains(id));

        JsonNode released = tree(operator().body("{\"reason\":\"false positive\"}")
                .when().post("/operator/transactions/" + id + "/release").then().statusCode(200).extract().asString());
        assertEquals(1, released.get("status").asInt());
        assertFalse(released.at("/compliance/heldForReview").asBoolean());
        assertEquals("released", released.at("/compliance/resolutionLogs/1/outcome").asText());
        assertTrue(released.at("/compliance/resolutionLogs/1/actor").asText().startsWith("operator:"));

        List<String> types = eventTypes(Topics.TRANSACTIONS, id, t -> t.contains("transaction.success"));
        assertEquals(List.of("transaction.created", "transaction.payment_detected", "transaction.held",
                "transaction.released", "transaction.success"), types);
        JsonNode after = tree(operator().when().get("/operator/transactions/held?limit=100&page=1&accountID="
                + shop.account().accountId()).then().statusCode(200).extract().asString());
        assertFalse(after.get("transactions").findValuesAsText("transactionID").contains(id));
        operator().body("{}").when().post("/operator/transactions/" + id + "/release").then().statusCode(409);
        return id;
    }

    @Test
    void aHeldTransactionIsRefundedByTheOperator() {
        String sender = listed("fraud", null);
        String id = shop.pay("100", sender, "0.002");
        shop.await(id, tx -> tx.at("/compliance/heldForReview").asBoolean());
        JsonNode refunded = tree(operator().body("{\"reason\":\"confirmed fraud\"}")
                .when().post("/operator/transactions/" + id + "/refund").then().statusCode(200).extract().asString());
        assertEquals(-2, refunded.get("status").asInt());
        assertEquals(1, refunded.get("refunds").size());
        assertEquals(sender, refunded.at("/refunds/0/receiverAddress").asText());
        assertEquals("refunded", refunded.at("/compliance/resolutionLogs/1/outcome").asText());
        String legId = refunded.at("/refunds/0/refundID").asText();
        assertTrue(eventTypes(Topics.REFUNDS, legId, t -> !t.isEmpty()).contains("refund.created"));
        List<String> types = eventTypes(Topics.TRANSACTIONS, id, t -> t.contains("transaction.cancelled"));
        assertFalse(types.contains("transaction.success"), types.toString());
    }
}
