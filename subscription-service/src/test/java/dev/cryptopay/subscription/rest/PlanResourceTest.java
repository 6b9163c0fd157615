package dev.cryptopay.subscription.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.cryptopay.subscription.testing.Fixtures;
import dev.cryptopay.subscription.testing.GreenMailResource;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
@QuarkusTestResource(GreenMailResource.class)
class PlanResourceTest {

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void createAnswersThePlanWithItsExactAmountAndUsdByDefault() {
        UUID account = UUID.randomUUID();
        UUID merchant = Fixtures.merchant(account);
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"accountId\":\"" + account + "\",\"merchantId\":\"" + merchant + "\",\"planName\":\"Gold\","
                        + "\"description\":\"d\",\"amount\":\"19.90\",\"billingInterval\":\"MONTHLY\"}")
                .when().post("/subscriptionplans")
                .then().statusCode(201)
                .body("accountId", equalTo(account.toString()))
                .body("merchantId", equalTo(merchant.toString()))
                .body("planName", equalTo("Gold"))
                .body("description", equalTo("d"))
                .body("amount", equalTo("19.90"))
                .body("billingInterval", equalTo("MONTHLY"))
                .body("currency", equalTo("USD"));
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"accountId\":\"" + account + "\",\"amount\":\"1500\",\"billingInterval\":\"YEARLY\","
                        + "\"currency\":\"JPY\"}")
                .when().post("/subscriptionplans")
                .then().statusCode(201)
                .body("merchantId", nullValue())
                .body("planName", nullValue())
                .body("amount", equalTo("1500"))
                .body("currency", equalTo("JPY"));
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "\"amount\":\"10\",\"billingInterval\":\"WEEKLY\"|billingInterval",
            "\"amount\":\"10\",\"billingInterval\":\"monthly\"|billingInterval",
            "\"amount\":\"10\"|billingInterval",
            "\"amount\":\"-5\",\"billingInterval\":\"MONTHLY\"|amount",
            "\"amount\":\"0\",\"billingInterval\":\"MONTHLY\"|amount",
            "\"amount\":\"0.00\",\"billingInterval\":\"MONTHLY\"|amount",
            "\"amount\":\"ten\",\"billingInterval\":\"MONTHLY\"|amount",
            "\"amount\":\"\",\"billingInterval\":\"MONTHLY\"|amount",
            "\"billingInterval\":\"MONTHLY\"|amount",
            "\"amount\":\"1000000000000.01\",\"billingInterval\":\"MONTHLY\"|amount",
            "\"amount\":\"9.999\",\"billingInterval\":\"MONTHLY\"|amount",
            "\"amount\":\"10\",\"billingInterval\":\"MONTHLY\",\"currency\":\"XXY\"|currency",
            "\"amount\":\"10.5\",\"billingInterval\":\"MONTHLY\",\"currency\":\"JPY\"|amount",
            "\"amount\":\"10\",\"billingInterval\":\"MONTHLY\",\"merchantId\":\"nope\"|merchantId",
            "\"amount\":\"10\",\"billingInterval\":\"MONTHLY\",\"merchantId\":\"6f1c1a52-51a8-4ac4-9df5-7d6c9a5f0d11\"|merchantId"
    })
    void refusesInvalidPlans(String fields, String field) {
        UUID account = UUID.randomUUID();
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"accountId\":\"" + account + "\"," + fields + "}")
                .when().post("/subscriptionplans")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("validation_failed"))
                .body("errors.field", hasItem(field));
    }

    @Test
    void anAmountMustBeAStringAndAnotherAccountIs403() {
        UUID account = UUID.randomUUID();
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"accountId\":\"" + account + "\",\"amount\":10,\"billingInterval\":\"MONTHLY\"}")
                .when().post("/subscriptionplans").then().statusCode(400);
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"accountId\":\"" + UUID.randomUUID() + "\",\"amount\":\"10\",\"billingInterval\":\"MONTHLY\"}")
                .when().post("/subscriptionplans").then().statusCode(403).body("code", equalTo("forbidden"));
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"amount\":\"10\",\"billingInterval\":\"MONTHLY\"}")
                .when().post("/subscriptionplans").then().statusCode(400).body("errors.field", hasItem("accountId"));
        given().auth().oauth2(TestTokens.apiKey(account, "read_only")).contentType(ContentType.JSON)
                .body("{\"accountId\":\"" + account + "\",\"amount\":\"10\",\"billingInterval\":\"MONTHLY\"}")
                .when().post("/subscriptionplans").then().statusCode(403);
        given().auth().oauth2(TestTokens.admin(account)).queryParam("accountId", UUID.randomUUID().toString())
                .when().get("/subscriptionplans").then().statusCode(403);
    }

    @Test
    void anotherAccountsPlanIs404() {
        UUID account = UUID.randomUUID();
        String id = Fixtures.plan(account, null, "5", "MONTHLY").getString("id");
        given().auth().oauth2(TestTokens.apiKey(account, "read_only")).when().get("/subscriptionplans/" + id)
                .then().statusCode(200).body("id", equalTo(id));
        given().auth().oauth2(TestTokens.admin(UUID.randomUUID())).when().get("/subscriptionplans/" + id)
                .then().statusCode(404).body("code", equalTo("not_found"));
        given().auth().oauth2(TestTokens.admin(account)).when().get("/subscriptionplans/not-a-uuid")
                .then().statusCode(404);
    }

    @Test
    void listsNewestFirstWithFiltersAndPaginationEdges() {
        UUID account = UUID.randomUUID();
        UUID merchant = Fixtures.merchant(account);
        String a = Fixtures.plan(account, merchant, "1", "MONTHLY").getString("id");
        String b = Fixtures.plan(account, null, "2", "YEARLY").getString("id");
        String c = Fixtures.plan(account, merchant, "3", "MONTHLY").getString("id");
        Fixtures.plan(UUID.randomUUID(), null, "4", "MONTHLY");
        String token = TestTokens.admin(account);

        given().auth().oauth2(token).when().get("/subscriptionplans").then().statusCode(200)
                .body("plans.id", contains(c, b, a))
                .body("metadata.totalCount", equalTo(3)).body("metadata.count", equalTo(3))
                .body("metadata.page", equalTo(1)).body("metadata.pageSize", equalTo(20));
        given().auth().oauth2(token).queryParam("merchantId", merchant.toString()).queryParam("accountId",
                account.toString()).when().get("/subscriptionplans").then().statusCode(200)
                .body("plans.id", contains(c, a)).body("metadata.totalCount", equalTo(2));
        given().auth().oauth2(token).queryParam("limit", 2).queryParam("page", 2).when().get("/subscriptionplans")
                .then().statusCode(200).body("plans.id", contains(a))
                .body("metadata.count", equalTo(1)).body("metadata.pageSize", equalTo(2));
        given().auth().oauth2(token).queryParam("limit", 2).queryParam("page", 3).when().get("/subscriptionplans")
                .then().statusCode(200).body("plans", hasSize(0)).body("metadata.totalCount", equalTo(3));
        given().auth().oauth2(token).queryParam("limit", 1000).when().get("/subscriptionplans")
                .then().statusCode(200).body("metadata.pageSize", equalTo(100));
        // a page starting beyond what any listing serves is refused (service-support's PageRequest), never a 500
        given().auth().oauth2(token).queryParam("page", 2147483647).queryParam("limit", 100)
                .when().get("/subscriptionplans").then().statusCode(400).body("errors.field", hasItem("page"));
        for (String[] bad : new String[][] { { "limit", "0" }, { "page", "0" }, { "limit", "x" }, { "page", "-1" },
                { "merchantId", "abc" } }) {
            given().auth().oauth2(token).queryParam(bad[0], bad[1]).when().get("/subscriptionplans")
                    .then().statusCode(400).body("errors.field", hasItem(bad[0]));
        }
    }
}
