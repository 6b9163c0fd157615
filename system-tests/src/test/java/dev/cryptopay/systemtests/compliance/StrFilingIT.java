package dev.cryptopay.systemtests.compliance;

import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.awaitCreated;
import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.order;
import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.verification;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.compliance.KycRestoreFixtures.Shop;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * STR filing through the gateway (docs/decisions.md §67): an operator records the report's reference once; the API key
 * sees it on the transaction and, from the transaction's next event on, in reporting; a publishable key never does.
 */
class StrFilingIT {

    private static Shop shop;

    @BeforeAll
    static void start() {
        KycRestoreFixtures.start();
        shop = KycRestoreFixtures.shop("Str Filing GmbH", "\"kycEnabled\":true,\"kycThreshold\":1000");
    }

    private static Response file(String id, String reference) {
        return given().auth().oauth2(Suite.get().operatorToken()).contentType(ContentType.JSON)
                .body("{\"reference\":\"" + reference + "\"}").when().post("/operator/transactions/" + id + "/str");
    }

    @Test
    void aFilingIsRecordedOnceVisibleToApiKeysAndInReporting() {
        String id = awaitCreated(shop, order("2500", "USD", "BTC", "bitcoin"), r -> r.getInt("status") == -3)
                .getString("transactionId");
        assertEquals(201, file(id, "FIU-IT-0001").statusCode());
        assertEquals(200, file(id, "FIU-IT-0001").statusCode());
        assertEquals(409, file(id, "FIU-IT-0002").statusCode());
        int merchantTry = shop.asApiKey().contentType(ContentType.JSON).body("{\"reference\":\"X-1\"}")
                .when().post("/operator/transactions/" + id + "/str").statusCode();
        assertTrue(merchantTry == 401 || merchantTry == 403, "an API key cannot file: " + merchantTry);

        JsonPath tx = shop.asApiKey().get("/transaction/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals("FIU-IT-0001", tx.getString("compliance.strFilingReference"));
        assertEquals("str", tx.getString("compliance.resolutionLogs[-1].trigger"));
        assertEquals("filed", tx.getString("compliance.resolutionLogs[-1].outcome"));
        assertEquals(null, shop.asPublishable().get("/transaction/" + id).then().statusCode(200).extract()
                .jsonPath().getString("compliance.strFilingReference"));

        // the next event (the verification) carries the reference to reporting
        verification(shop, "str-" + UUID.randomUUID() + "@example.com", false)
                .when().post("/transaction/" + id + "/verification").then().statusCode(200);
        ServiceDatabases.awaitTrue(() -> {
            Response r = given().header("X-Api-Key", shop.apiKey())
                    .get("/accounts/" + shop.accountId() + "/transactions/" + id);
            return r.statusCode() == 200 && "FIU-IT-0001".equals(r.jsonPath().getString("compliance.strFilingReference"));
        }, "reporting shows the STR filing reference");
        JsonPath report = given().header("X-Api-Key", shop.apiKey())
                .get("/accounts/" + shop.accountId() + "/transactions/" + id).then().extract().jsonPath();
        assertEquals("filed", report.getString("compliance.resolutionLogs[-1].outcome"));
        int publishableTry = given().header("X-Publishable-Key", shop.publishable())
                .get("/accounts/" + shop.accountId() + "/transactions/" + id).statusCode();
        assertTrue(publishableTry == 401 || publishableTry == 403, "reporting refuses a publishable key: "
                + publishableTry);
    }
}
