package dev.cryptopay.subscription.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cryptopay.subscription.testing.Fixtures;
import dev.cryptopay.subscription.testing.GreenMailResource;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * POST /subscriptions, POST /subscriptionpayments and POST /subscriptionplans honour Idempotency-Key in this service
 * too (docs/decisions.md §112, §122): a subscription bills every period and a payment bills now, so a retry the gateway
 * could not answer gets the first answer and creates nothing; nor does a plan's. The record itself (a retry waiting
 * for a first request still running, a purge) is service-support's IdempotentCreations, tested in transaction-service;
 * this checks these creations use it.
 */
@QuarkusTest
@QuarkusTestResource(GreenMailResource.class)
class IdempotentCreationTest {

    @Inject
    EntityManager em;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    /** A key's records belong to the key that sent them: one token (one API key) for all of a test's requests. */
    private static ExtractableResponse<Response> post(String token, String path, String key, String body) {
        return given().auth().oauth2(token).header("Idempotency-Key", key)
                .contentType(ContentType.JSON).body(body).when().post(path).then().extract();
    }

    /** An account with a merchant and a monthly plan, and one admin token (one API key) for all its requests. */
    private static final class Shop {
        final UUID account = UUID.randomUUID();
        final String token = TestTokens.admin(account);
        final String plan = Fixtures.plan(account, Fixtures.merchant(account), "9.99", "MONTHLY").getString("id");
    }

    private long count(String table, String column, String value) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select count(*) from " + table + " where " + column + " = ?1").setParameter(1, value)
                .getSingleResult()).longValue());
    }

    @Test
    void aRetriedSubscriptionGetsTheFirstAnswerAndStartsNoOther() {
        Shop shop = new Shop();
        String email = "ann-" + UUID.randomUUID() + "@example.com";
        String body = Fixtures.subscriptionBody(shop.plan, email, "BTC", "bitcoin", "MONTHLY");
        String key = "sub-" + UUID.randomUUID();

        ExtractableResponse<Response> first = post(shop.token, "/subscriptions", key, body);
        ExtractableResponse<Response> again = post(shop.token, "/subscriptions", key, body);

        assertEquals(201, first.statusCode());
        assertEquals(201, again.statusCode());
        assertNull(first.header("Idempotent-Replayed"));
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(first.body().asString(), again.body().asString(), "the first answer, as it was");
        assertEquals(1, count("subscription", "customer_email", email));

        ExtractableResponse<Response> other = post(shop.token, "/subscriptions", key,
                Fixtures.subscriptionBody(shop.plan, email, "USDC", "polygon", "MONTHLY"));
        assertEquals(422, other.statusCode(), "another request under the same key");
        assertEquals("idempotency_key_reused", other.path("code"));
        assertEquals(1, count("subscription", "customer_email", email));

        given().auth().oauth2(TestTokens.admin(UUID.randomUUID())).header("Idempotency-Key", key)
                .contentType(ContentType.JSON).body(body).when().post("/subscriptions")
                .then().statusCode(400).body("errors.field", hasItem("planId")); // another caller: its own keys
    }

    @Test
    void aRetriedPlanGetsTheFirstAnswerAndCreatesNoOther() {
        UUID account = UUID.randomUUID();
        String token = TestTokens.admin(account);
        String name = "Gold " + UUID.randomUUID();
        String body = "{\"accountId\":\"" + account + "\",\"planName\":\"" + name + "\",\"amount\":\"9.99\","
                + "\"billingInterval\":\"MONTHLY\"}";
        String key = "plan-" + UUID.randomUUID();

        ExtractableResponse<Response> first = post(token, "/subscriptionplans", key, body);
        ExtractableResponse<Response> again = post(token, "/subscriptionplans", key, body);

        assertEquals(201, first.statusCode());
        assertEquals(201, again.statusCode());
        assertNull(first.header("Idempotent-Replayed"));
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(first.body().asString(), again.body().asString(), "the first answer, as it was");
        assertEquals(1, count("plan", "plan_name", name));

        ExtractableResponse<Response> other = post(token, "/subscriptionplans", key, body.replace("9.99", "19.99"));
        assertEquals(422, other.statusCode(), "another request under the same key");
        assertEquals("idempotency_key_reused", other.path("code"));
        assertEquals(1, count("plan", "plan_name", name));
    }

    @Test
    void aFailedFirstRequestLeavesTheKeyFree() {
        Shop shop = new Shop();
        String email = "bo-" + UUID.randomUUID() + "@example.com";
        String key = "sub-" + UUID.randomUUID();

        assertEquals(400, post(shop.token, "/subscriptions", key,
                Fixtures.subscriptionBody(shop.plan, email, "BTC", "bitcoin", "YEARLY")).statusCode());
        ExtractableResponse<Response> fixed = post(shop.token, "/subscriptions", key,
                Fixtures.subscriptionBody(shop.plan, email, "BTC", "bitcoin", "MONTHLY"));
        assertEquals(201, fixed.statusCode(), "the refused request kept no claim on the key");
        assertNull(fixed.header("Idempotent-Replayed"));
        ExtractableResponse<Response> malformed = post(shop.token, "/subscriptions", "two words",
                Fixtures.subscriptionBody(shop.plan, "other-" + email, "BTC", "bitcoin", "MONTHLY"));
        assertEquals(400, malformed.statusCode(), "a key with a space is malformed");
        assertEquals("Idempotency-Key", malformed.path("errors[0].field"));
        assertEquals(0, count("subscription", "customer_email", "other-" + email));
    }

    @Test
    void aRetriedManualPaymentBillsOnce() {
        Shop shop = new Shop();
        String email = "cy-" + UUID.randomUUID() + "@example.com";
        String subscription = Fixtures.subscription(shop.account, shop.plan, email).getString("id");
        String body = "{\"subscriptionId\":\"" + subscription + "\"}";
        String key = "pay-" + UUID.randomUUID();

        ExtractableResponse<Response> first = post(shop.token, "/subscriptionpayments", key, body);
        ExtractableResponse<Response> again = post(shop.token, "/subscriptionpayments", key, body);

        assertEquals(201, first.statusCode());
        assertEquals(201, again.statusCode(), "the first answer, not 409 for the payment it opened");
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(first.path("id").toString(), again.path("id").toString());
        assertEquals(1, count("subscription_payment", "cast(subscription_id as text)", subscription));
        given().auth().oauth2(shop.token).contentType(ContentType.JSON).body(body)
                .when().post("/subscriptionpayments")
                .then().statusCode(409).body("code", equalTo("invalid_state")); // without a key: a second bill
    }
}
