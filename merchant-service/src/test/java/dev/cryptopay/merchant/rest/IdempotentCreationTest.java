package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.narayana.jta.QuarkusTransaction;
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
 * POST …/merchants, POST …/keys and POST /operator/accounts honour Idempotency-Key in this service too
 * (docs/decisions.md §122): the gateway replays the answers it saw, but a retry whose first answer the gateway lost
 * (its time limit, a client gone) reaches the service again, and must get the first answer, not a second merchant,
 * account or key nobody holds. The record itself (a retry waiting for a first request still running, a purge) is
 * service-support's IdempotentCreations, tested in transaction-service; this checks these creations use it, and that
 * a key's secrets are never kept in it.
 */
@QuarkusTest
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

    private long count(String sql, Object parameter) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(sql)
                .setParameter(1, parameter).getSingleResult()).longValue());
    }

    @Test
    void aRetriedMerchantGetsTheFirstAnswerAndCreatesNoOther() {
        UUID account = TestAccounts.newAccount();
        String token = TestTokens.admin(account);
        String name = "Shop " + UUID.randomUUID();
        String body = TestAccounts.MINIMAL_MERCHANT.replace("Corner Shop", name).replace("}",
                ",\"merchantDiscountRate\":{\"percentage\":0.0250,\"flatRate\":0.30,\"flatRateCurrency\":\"USD\"}}");
        String path = "/accounts/" + account + "/merchants";
        String key = "merchant-" + UUID.randomUUID();

        ExtractableResponse<Response> first = post(token, path, key, body);
        ExtractableResponse<Response> again = post(token, path, key, body);

        assertEquals(201, first.statusCode(), first.body().asString());
        assertEquals(201, again.statusCode());
        assertNull(first.header("Idempotent-Replayed"));
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertTrue(first.body().asString().contains("\"Percentage\":0.0250,\"FlatRate\":0.30"),
                "amounts keep their scale: " + first.body().asString());
        assertEquals(first.body().asString(), again.body().asString(), "the first answer, byte for byte");
        assertEquals(1, count("select count(*) from merchant where name = ?1", name));

        ExtractableResponse<Response> other = post(token, path, key, body.replace("Berlin", "Hamburg"));
        assertEquals(422, other.statusCode(), "another request under the same key");
        assertEquals("idempotency_key_reused", other.path("code"));

        ExtractableResponse<Response> otherCaller = post(TestTokens.admin(account), path, key, body); // another key
        assertEquals(201, otherCaller.statusCode(), "another API key of the account has keys of its own");
        assertNull(otherCaller.header("Idempotent-Replayed"));
        assertEquals(2, count("select count(*) from merchant where name = ?1", name));
    }

    @Test
    void aRetriedAccountCreationGetsTheFirstAccountWithoutItsKeysSecrets() {
        String operator = TestTokens.operator();
        String email = "ops-" + UUID.randomUUID() + "@acme.example";
        String body = "{\"name\":\"Acme\",\"email\":\"" + email + "\"}";
        String key = "account-" + UUID.randomUUID();

        ExtractableResponse<Response> first = post(operator, "/operator/accounts", key, body);
        ExtractableResponse<Response> again = post(operator, "/operator/accounts", key, body);

        assertEquals(201, first.statusCode());
        assertEquals(201, again.statusCode());
        assertNotNull(first.path("apiKey.generatedKey"));
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals((String) first.path("accountUUID"), again.path("accountUUID"));
        assertNull(again.path("apiKey.generatedKey"), "a replay never shows a secret again (§28)");
        assertNull(again.path("apiKey.privateKey"));
        assertEquals(1, count("select count(*) from account where email = ?1", email));
    }

    @Test
    void aFailedFirstMerchantLeavesTheKeyFree() {
        UUID account = TestAccounts.newAccount();
        String token = TestTokens.admin(account);
        String path = "/accounts/" + account + "/merchants";
        String key = "merchant-" + UUID.randomUUID();

        assertEquals(400, post(token, path, key, TestAccounts.MINIMAL_MERCHANT.replace("\"DE\"", "\"XX\""))
                .statusCode());
        ExtractableResponse<Response> fixed = post(token, path, key, TestAccounts.MINIMAL_MERCHANT);
        assertEquals(201, fixed.statusCode(), "the refused request kept no claim on the key");
        assertNull(fixed.header("Idempotent-Replayed"));
    }

    @Test
    void aRetriedKeyCreationGetsTheFirstAnswerWithoutItsSecretsAndIssuesNoOther() {
        UUID account = TestAccounts.newAccount();
        String token = TestTokens.admin(account);
        String path = "/accounts/" + account + "/keys";
        String name = "ci " + UUID.randomUUID();
        String body = "{\"keyType\":\"api\",\"name\":\"" + name + "\",\"role\":\"read_only\"}";
        String key = "key-" + UUID.randomUUID();

        ExtractableResponse<Response> first = post(token, path, key, body);
        ExtractableResponse<Response> again = post(token, path, key, body);

        assertEquals(201, first.statusCode());
        assertEquals(201, again.statusCode());
        given().auth().oauth2(token).header("Idempotency-Key", "key-" + UUID.randomUUID())
                .contentType(ContentType.JSON).body(body).when().post(path)
                .then().statusCode(201).body("generatedKey", matchesPattern("ak_[A-Za-z0-9_-]{32}"));
        assertNotNull(first.path("generatedKey"), "the first answer shows the secret once");
        assertNotNull(first.path("privateKey"));
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertNull(again.path("generatedKey"), "a replay never shows a secret again (§28)");
        assertNull(again.path("privateKey"));
        assertEquals(2, count("select count(*) from account_key where name = ?1", name),
                "one key for the two requests under one Idempotency-Key, one for the third under its own");
        assertEquals(0, count("select count(*) from idempotent_creation where answer like ?1",
                "%" + first.path("generatedKey") + "%"), "the secret is not kept");
        assertEquals(0, count("select count(*) from idempotent_creation where answer like ?1",
                "%" + first.path("privateKey") + "%"));
    }
}
