package dev.cryptopay.subscription.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.subscription.testing.Fixtures;
import dev.cryptopay.subscription.testing.GreenMailResource;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
@QuarkusTestResource(GreenMailResource.class)
class SubscriptionResourceTest {

    @Inject
    EntityManager em;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void createAnswersTheSubscriptionDueNowAndRecordsCreatedWithItsEvent() {
        UUID account = UUID.randomUUID();
        UUID merchant = Fixtures.merchant(account);
        String plan = Fixtures.plan(account, merchant, "9.99", "MONTHLY").getString("id");
        String id = given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body(Fixtures.subscriptionBody(plan, "ann@example.com", "BTC", "bitcoin", "MONTHLY"))
                .when().post("/subscriptions")
                .then().statusCode(201)
                .body("accountId", equalTo(account.toString()))
                .body("merchantId", equalTo(merchant.toString()))
                .body("planId", equalTo(plan))
                .body("planName", equalTo("Gold"))
                .body("customerEmail", equalTo("ann@example.com"))
                .body("walletAddress", equalTo("tb1qcustomer"))
                .body("asset", equalTo("BTC")).body("network", equalTo("bitcoin"))
                .body("status", equalTo("CREATED"))
                .body("billingInterval", equalTo("MONTHLY"))
                .body("lastBillingAt", nullValue())
                .body("nextBillingAt", notNullValue())
                .body("amount", equalTo("9.99")).body("currency", equalTo("USD"))
                .extract().path("id");
        given().auth().oauth2(TestTokens.apiKey(account, "read_only")).when().get("/subscriptions/" + id + "/events")
                .then().statusCode(200).body("events.type", contains("CREATED"))
                .body("events[0].data.reason", nullValue()).body("metadata.totalCount", equalTo(1));
        List<?> types = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select event_type from outbox_event where message_key = ?1 and topic = 'payments.subscriptions.v1'")
                .setParameter(1, id).getResultList());
        assertEquals(List.of("subscription.created"), types);
    }

    @ParameterizedTest(name = "{0} -> 400 on {1}")
    @CsvSource(delimiter = '|', value = {
            "BTC|bitcoin|YEARLY|billingInterval",
            "BTC|bitcoin|WEEKLY|billingInterval",
            "DOGE|bitcoin|MONTHLY|asset",
            "BTC|moon|MONTHLY|network",
            "BTC|ethereum|MONTHLY|network",
            "ETH|ethereum|MONTHLY|asset",
            "USDC|ethereum|MONTHLY|asset"
    })
    void refusesWhatThePlanOrTheMerchantDoesNotAllow(String asset, String network, String interval, String field) {
        UUID account = UUID.randomUUID();
        String plan = Fixtures.plan(account, Fixtures.merchant(account), "5", "MONTHLY").getString("id");
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body(Fixtures.subscriptionBody(plan, "a@example.com", asset, network, interval))
                .when().post("/subscriptions")
                .then().statusCode(400).body("code", equalTo("validation_failed")).body("errors.field", hasItem(field));
    }

    @Test
    void refusesUnknownPlansBadFieldsAndAmbiguousMerchants() {
        UUID account = UUID.randomUUID();
        String token = TestTokens.admin(account);
        String otherPlan = Fixtures.plan(UUID.randomUUID(), null, "5", "MONTHLY").getString("id");
        for (String plan : List.of(UUID.randomUUID().toString(), otherPlan, "nope")) {
            given().auth().oauth2(token).contentType(ContentType.JSON)
                    .body(Fixtures.subscriptionBody(plan, "a@example.com", "BTC", "bitcoin", "MONTHLY"))
                    .when().post("/subscriptions").then().statusCode(400).body("errors.field", hasItem("planId"));
        }
        given().auth().oauth2(token).contentType(ContentType.JSON).body("{}").when().post("/subscriptions")
                .then().statusCode(400).body("errors.field", hasItem("customerEmail"))
                .body("errors.field", hasItem("walletAddress")).body("errors.field", hasItem("asset"));
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Fixtures.subscriptionBody(otherPlan, "not-an-email", "BTC", "bitcoin", "MONTHLY"))
                .when().post("/subscriptions").then().statusCode(400).body("errors.field", hasItem("customerEmail"));

        // a plan without a merchant bills through the account's only enabled merchant, and is refused with two
        String planWithoutMerchant = Fixtures.plan(account, null, "5", "MONTHLY").getString("id");
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Fixtures.subscriptionBody(planWithoutMerchant, "a@example.com", "BTC", "bitcoin", "MONTHLY"))
                .when().post("/subscriptions").then().statusCode(400).body("errors.field", hasItem("planId"));
        UUID only = Fixtures.merchant(account);
        Fixtures.merchant(account, MerchantConfiguration.UNDER_REVIEW, null, null);
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Fixtures.subscriptionBody(planWithoutMerchant, "a@example.com", "BTC", "bitcoin", "MONTHLY"))
                .when().post("/subscriptions").then().statusCode(201).body("merchantId", equalTo(only.toString()));
        Fixtures.merchant(account);
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Fixtures.subscriptionBody(planWithoutMerchant, "a@example.com", "BTC", "bitcoin", "MONTHLY"))
                .when().post("/subscriptions").then().statusCode(400).body("errors.field", hasItem("planId"));
        // a merchant that is not enabled takes no new subscription
        UUID review = Fixtures.merchant(account, MerchantConfiguration.UNDER_REVIEW, null, null);
        String reviewPlan = Fixtures.plan(account, review, "5", "MONTHLY").getString("id");
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Fixtures.subscriptionBody(reviewPlan, "a@example.com", "BTC", "bitcoin", "MONTHLY"))
                .when().post("/subscriptions").then().statusCode(409).body("code", equalTo("merchant_not_enabled"));
    }

    /** Every move the API offers from every state it can reach by itself: allowed ones answer 200, others 409. */
    @Test
    void everyAllowedMoveAnswersItsStateAndEveryRefusedOneIs409() {
        UUID account = UUID.randomUUID();
        String plan = Fixtures.plan(account, Fixtures.merchant(account), "5", "MONTHLY").getString("id");
        String id = Fixtures.subscription(account, plan, "a@example.com").getString("id");

        move(account, id, "resume", 409, null);           // CREATED: not paused
        move(account, id, "pause", 200, "PAUSED");        // CREATED -> PAUSED
        move(account, id, "pause", 409, null);            // PAUSED: already paused
        move(account, id, "resume", 200, "CREATED");      // never paid: back to CREATED
        move(account, id, "pause", 200, "PAUSED");
        move(account, id, "cancel", 200, "CANCELED");     // PAUSED -> CANCELED
        move(account, id, "pause", 409, null);
        move(account, id, "resume", 409, null);
        move(account, id, "cancel", 409, null);

        String second = Fixtures.subscription(account, plan, "b@example.com").getString("id");
        move(account, second, "cancel", 200, "CANCELED"); // CREATED -> CANCELED

        given().auth().oauth2(TestTokens.admin(account)).when().get("/subscriptions/" + id + "/events")
                .then().statusCode(200)
                .body("events.type", contains("CANCELED", "PAUSED", "RESUMED", "PAUSED", "CREATED"))
                .body("events[0].data.reason", equalTo("because cancel"))
                .body("events[3].data.reason", equalTo("because pause"));
        given().auth().oauth2(TestTokens.admin(account)).queryParam("limit", 2).queryParam("page", 2)
                .when().get("/subscriptions/" + id + "/events")
                .then().statusCode(200).body("events.type", contains("RESUMED", "PAUSED"))
                .body("metadata.totalCount", equalTo(5));
        List<?> types = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select event_type from outbox_event where message_key = ?1 and topic = 'payments.subscriptions.v1' "
                        + "order by seq").setParameter(1, id).getResultList());
        assertEquals(List.of("subscription.created", "subscription.paused", "subscription.resumed",
                "subscription.paused", "subscription.canceled"), types);
    }

    @Test
    void movesOfAnotherAccountsSubscriptionAre404AndReadOnlyKeysCannotMove() {
        UUID account = UUID.randomUUID();
        String plan = Fixtures.plan(account, Fixtures.merchant(account), "5", "MONTHLY").getString("id");
        String id = Fixtures.subscription(account, plan, "a@example.com").getString("id");
        UUID stranger = UUID.randomUUID();
        move(stranger, id, "pause", 404, null);
        move(stranger, id, "cancel", 404, null);
        given().auth().oauth2(TestTokens.admin(stranger)).when().get("/subscriptions/" + id).then().statusCode(404);
        given().auth().oauth2(TestTokens.admin(stranger)).when().get("/subscriptions/" + id + "/events")
                .then().statusCode(404);
        given().auth().oauth2(TestTokens.apiKey(account, "read_only")).contentType(ContentType.JSON).body("{}")
                .when().put("/subscriptions/" + id + "/pause").then().statusCode(403);
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"reason\":\"" + "x".repeat(256) + "\"}")
                .when().put("/subscriptions/" + id + "/pause").then().statusCode(400);
        // the reason is optional
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body("{}")
                .when().put("/subscriptions/" + id + "/pause")
                .then().statusCode(200).body("status", equalTo("PAUSED")).body("id", equalTo(id));
        given().auth().oauth2(TestTokens.admin(account)).when().get("/subscriptions/" + id + "/events")
                .then().statusCode(200).body("events.type", contains("PAUSED", "CREATED"))
                .body("events[0].data.reason", nullValue());
    }

    @Test
    void listFiltersOnEveryFieldWithPagination() {
        UUID account = UUID.randomUUID();
        UUID merchantA = Fixtures.merchant(account);
        UUID merchantB = Fixtures.merchant(account);
        String planA = Fixtures.plan(account, merchantA, "5", "MONTHLY").getString("id");
        String planB = Fixtures.plan(account, merchantB, "7", "MONTHLY").getString("id");
        String s1 = Fixtures.subscription(account, planA, "one@example.com").getString("id");
        String s2 = Fixtures.subscription(account, planB, "two@example.com").getString("id");
        String s3 = Fixtures.subscription(account, planA, "two@example.com").getString("id");
        move(account, s3, "pause", 200, "PAUSED");
        otherAccountWithPlan();
        String token = TestTokens.admin(account);

        given().auth().oauth2(token).when().get("/subscriptions").then().statusCode(200)
                .body("subscriptions.id", contains(s3, s2, s1)).body("metadata.totalCount", equalTo(3));
        given().auth().oauth2(token).queryParam("merchantId", merchantA.toString()).when().get("/subscriptions")
                .then().body("subscriptions.id", contains(s3, s1));
        given().auth().oauth2(token).queryParam("planId", planB).when().get("/subscriptions")
                .then().body("subscriptions.id", contains(s2));
        given().auth().oauth2(token).queryParam("customerEmail", "two@example.com").when().get("/subscriptions")
                .then().body("subscriptions.id", contains(s3, s2));
        given().auth().oauth2(token).queryParam("walletAddress", "tb1qcustomer").queryParam("status", "PAUSED")
                .when().get("/subscriptions").then().body("subscriptions.id", contains(s3));
        given().auth().oauth2(token).queryParam("walletAddress", "elsewhere").when().get("/subscriptions")
                .then().body("subscriptions", hasSize(0)).body("metadata.totalCount", equalTo(0));
        given().auth().oauth2(token).queryParam("status", "CREATED").queryParam("limit", 1).queryParam("page", 2)
                .queryParam("accountId", account.toString())
                .when().get("/subscriptions").then().statusCode(200).body("subscriptions.id", contains(s1))
                .body("metadata.totalCount", equalTo(2)).body("metadata.pageSize", equalTo(1));
        given().auth().oauth2(token).queryParam("status", "ACTIVE").when().get("/subscriptions")
                .then().body("subscriptions", hasSize(0));
        given().auth().oauth2(token).queryParam("status", "paused").when().get("/subscriptions")
                .then().statusCode(400).body("errors.field", hasItem("status"));
        given().auth().oauth2(token).queryParam("planId", "x").when().get("/subscriptions")
                .then().statusCode(400).body("errors.field", hasItem("planId"));
        given().auth().oauth2(token).queryParam("accountId", UUID.randomUUID().toString()).when().get("/subscriptions")
                .then().statusCode(403);
        given().auth().oauth2(token).queryParam("limit", 0).when().get("/subscriptions").then().statusCode(400);
    }

    private static void otherAccountWithPlan() {
        UUID other = UUID.randomUUID();
        String plan = Fixtures.plan(other, Fixtures.merchant(other), "5", "MONTHLY").getString("id");
        Fixtures.subscription(other, plan, "two@example.com");
    }

    static void move(UUID account, String id, String action, int status, String expected) {
        var request = given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"reason\":\"because " + action + "\"}");
        var response = "cancel".equals(action) ? request.when().delete("/subscriptions/" + id)
                : request.when().put("/subscriptions/" + id + "/" + action);
        var then = response.then().statusCode(status);
        if (status == 409) {
            then.body("code", equalTo("invalid_state"));
        }
        if (expected != null) {
            then.body("status", equalTo(expected)).body("id", equalTo(id));
        }
    }
}
