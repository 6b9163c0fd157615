package dev.cryptopay.systemtests.compliance;

import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.awaitCreated;
import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.order;
import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.verification;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.compliance.KycRestoreFixtures.Shop;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Travel-rule originator data through the gateway (docs/decisions.md §66): at or above the merchant region's
 * threshold the verification asks for the paying wallet (originatorWallet) besides the name and physical address,
 * before any address is shown; just below it no verification is asked for.
 */
class TravelRuleIT {

    private static Shop shop;

    @BeforeAll
    static void start() {
        KycRestoreFixtures.start();
        // The merchant is in region BE; DE's lower threshold is configured too and must not apply to it.
        shop = KycRestoreFixtures.shop("Travel Rule BV", "\"travelRulesRegionalThreshold\":{\"BE\":1000,\"DE\":100}");
    }

    @Test
    void atTheThresholdTheOriginatorWalletIsRequiredAndBelowItNothingIs() {
        JsonPath at = awaitCreated(shop, order("1000", "EUR", "USDC", "ethereum"), r -> r.getInt("status") == -3);
        List<String> required = at.getList("requiredFields");
        assertTrue(required.contains("originatorWallet"), required.toString());
        assertEquals(null, at.getString("address"));
        String id = at.getString("transactionId");

        JsonPath below = awaitCreated(shop, order("999.99", "EUR", "USDC", "ethereum"), r -> true);
        assertEquals(0, below.getInt("status"));
        assertFalse(below.getString("address").isBlank());

        verification(shop, "tr-" + UUID.randomUUID() + "@example.com", false)
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(400).body("errors.field", org.hamcrest.Matchers.hasItem("originatorWallet"));
        JsonPath ok = verification(shop, "tr-" + UUID.randomUUID() + "@example.com", false)
                .multiPart("originatorWallet", "0x52908400098527886E0F7030069857D2E4169EE7")
                .when().post("/transaction/" + id + "/verification").then().statusCode(200).extract().jsonPath();
        assertEquals(0, ok.getInt("status"));
        assertFalse(ok.getString("address").isBlank());
        JsonPath tx = shop.asApiKey().get("/transaction/" + id).then().statusCode(200).extract().jsonPath();
        assertTrue(tx.getBoolean("compliance.travelRuleTriggered"));
    }
}
