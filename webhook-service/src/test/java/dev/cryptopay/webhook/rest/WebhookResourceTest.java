package dev.cryptopay.webhook.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class WebhookResourceTest {

    private static final String UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    private static final String BODY = "{\"name\":\"Orders\",\"url\":\"https://shop.example/hooks\","
            + "\"events\":[\"transaction.success\",\"refund.completed\"]}";

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    private static String path(UUID account) {
        return "/accounts/" + account + "/webhooks";
    }

    private static JsonPath create(UUID account, String body) {
        return given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body(body)
                .when().post(path(account))
                .then().statusCode(201).contentType(ContentType.JSON).extract().jsonPath();
    }

    @Test
    void createAnswersExactlyTheDocumentedFieldsWithTheFullSigningKey() {
        UUID account = UUID.randomUUID();
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body(BODY)
                .when().post(path(account))
                .then().statusCode(201)
                .body("$", aMapWithSize(6))
                .body("uuid", matchesPattern(UUID_PATTERN))
                .body("signingKey", matchesPattern("wk_[A-Za-z0-9+/]{43}="))
                .body("name", equalTo("Orders"))
                .body("url", equalTo("https://shop.example/hooks"))
                .body("status", equalTo(1))
                .body("createdAt", matchesPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z"));
        String key = create(account, BODY).getString("signingKey");
        assertEquals(32, Base64.getDecoder().decode(key.substring(3)).length);
    }

    /**
     * Idempotency-Key is honoured here too (docs/decisions.md §122): a retry whose first answer the gateway lost gets
     * that answer, its signing secret {@code null} (shown once, §28), and no second webhook to receive every event again.
     */
    @Test
    void aRetriedCreationGetsTheFirstAnswerWithoutItsSecretAndCreatesNoOther() {
        UUID account = UUID.randomUUID();
        String token = TestTokens.admin(account); // one API key: a key's records are its own
        String key = "hook-" + UUID.randomUUID();
        Response first = given().auth().oauth2(token).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(BODY).when().post(path(account));
        Response again = given().auth().oauth2(token).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(BODY).when().post(path(account));

        first.then().statusCode(201).header("Idempotent-Replayed", nullValue())
                .body("signingKey", matchesPattern("wk_[A-Za-z0-9+/]{43}="));
        again.then().statusCode(201).header("Idempotent-Replayed", "true")
                .body("uuid", equalTo(first.path("uuid")))
                .body("createdAt", equalTo(first.path("createdAt")))
                .body("signingKey", nullValue());
        given().auth().oauth2(token).when().get(path(account)).then().statusCode(200).body("webhooks", hasSize(1));

        given().auth().oauth2(token).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(BODY.replace("Orders", "Refunds")).when().post(path(account))
                .then().statusCode(422).body("code", equalTo("idempotency_key_reused"));
    }

    @Test
    void listingShowsEveryWebhookOfTheAccountWithItsKeyEventsAndAccount() {
        UUID account = UUID.randomUUID();
        JsonPath first = create(account, BODY);
        JsonPath second = create(account, "{\"name\":\"All\",\"url\":\"http://hooks.example:8080/x\",\"events\":[\"*\"]}");
        create(UUID.randomUUID(), BODY); // another account's

        JsonPath listing = given().auth().oauth2(TestTokens.apiKey(account, "read_only"))
                .when().get(path(account))
                .then().statusCode(200)
                .body("$", aMapWithSize(1))
                .body("webhooks", hasSize(2))
                .body("webhooks[0]", aMapWithSize(8))
                .body("webhooks.uuid", containsInAnyOrder(first.getString("uuid"), second.getString("uuid")))
                .body("webhooks.accountID", contains(account.toString(), account.toString()))
                .body("webhooks.status", contains(1, 1))
                .body("webhooks[0].events", instanceOf(java.util.List.class))
                .extract().jsonPath();
        // newest first
        assertEquals(second.getString("uuid"), listing.getString("webhooks[0].uuid"));
        // a read-only key sees each secret masked: wk_… and its last four characters (docs/decisions.md §42)
        String full = second.getString("signingKey");
        assertEquals("wk_\u2026" + full.substring(full.length() - 4), listing.getString("webhooks[0].signingKey"));
        // a key that may write webhooks sees it in full
        assertEquals(full, given().auth().oauth2(TestTokens.admin(account)).when().get(path(account))
                .then().statusCode(200).extract().jsonPath().getString("webhooks[0].signingKey"));
        assertEquals(java.util.List.of("*"), listing.getList("webhooks[0].events"));
        assertEquals(java.util.List.of("transaction.success", "refund.completed"), listing.getList("webhooks[1].events"));
        assertEquals(OffsetDateTime.parse(first.getString("createdAt")),
                OffsetDateTime.parse(listing.getString("webhooks[1].createdAt")));

        given().auth().oauth2(TestTokens.admin(UUID.randomUUID())).when().get(path(UUID.randomUUID()))
                .then().statusCode(403);
        UUID empty = UUID.randomUUID();
        given().auth().oauth2(TestTokens.admin(empty)).when().get(path(empty))
                .then().statusCode(200).body("webhooks", empty());
    }

    @Test
    void onlyAnAdminKeyRotatesTheSecretAndTheStoredFormIsSealed() {
        UUID account = UUID.randomUUID();
        JsonPath hook = create(account, BODY);
        String id = hook.getString("uuid");
        String path = path(account) + "/" + id + "/rotate-secret";
        given().auth().oauth2(TestTokens.apiKey(account, "read_only")).when().post(path).then().statusCode(403);
        given().auth().oauth2(TestTokens.admin(UUID.randomUUID())).when().post(path).then().statusCode(403);
        given().auth().oauth2(TestTokens.admin(account)).when().post(path(account) + "/" + UUID.randomUUID()
                + "/rotate-secret").then().statusCode(404);
        JsonPath rotated = given().auth().oauth2(TestTokens.admin(account)).when().post(path)
                .then().statusCode(200).body("$", aMapWithSize(3)).body("uuid", equalTo(id))
                .body("signingKey", matchesPattern("wk_[A-Za-z0-9+/]{43}="))
                .extract().jsonPath();
        org.junit.jupiter.api.Assertions.assertNotEquals(hook.getString("signingKey"), rotated.getString("signingKey"));
        OffsetDateTime until = OffsetDateTime.parse(rotated.getString("previousKeyExpiresAt"));
        org.junit.jupiter.api.Assertions.assertTrue(until.isAfter(OffsetDateTime.now().plusHours(23)), until.toString());
        given().auth().oauth2(TestTokens.admin(account)).when().get(path(account))
                .then().statusCode(200).body("webhooks[0].signingKey", equalTo(rotated.getString("signingKey")));
    }

    @Test
    void updateChangesOnlyTheGivenFieldsAndAnswers204() {
        UUID account = UUID.randomUUID();
        String id = create(account, BODY).getString("uuid");
        String admin = TestTokens.admin(account);
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"status\":-1,\"events\":[\"transaction.expired\",\"transaction.expired\"]}")
                .when().put(path(account) + "/" + id)
                .then().statusCode(204);
        given().auth().oauth2(admin).when().get(path(account))
                .then().statusCode(200)
                .body("webhooks[0].status", equalTo(-1))
                .body("webhooks[0].events", contains("transaction.expired"))
                .body("webhooks[0].name", equalTo("Orders"))
                .body("webhooks[0].url", equalTo("https://shop.example/hooks"));
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"name\":\"Renamed\",\"url\":\"https://other.example/h\",\"status\":1}")
                .when().put(path(account) + "/" + id)
                .then().statusCode(204);
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{}")
                .when().put(path(account) + "/" + id)
                .then().statusCode(204);
        given().auth().oauth2(admin).when().get(path(account))
                .then().body("webhooks[0].status", equalTo(1))
                .body("webhooks[0].name", equalTo("Renamed"))
                .body("webhooks[0].url", equalTo("https://other.example/h"))
                .body("webhooks[0].events", contains("transaction.expired"));
    }

    @Test
    void deleteAnswers204AndTheWebhookIsGone() {
        UUID account = UUID.randomUUID();
        String id = create(account, BODY).getString("uuid");
        String admin = TestTokens.admin(account);
        given().auth().oauth2(admin).when().delete(path(account) + "/" + id).then().statusCode(204);
        given().auth().oauth2(admin).when().get(path(account)).then().body("webhooks", empty());
        given().auth().oauth2(admin).when().delete(path(account) + "/" + id)
                .then().statusCode(404).contentType("application/problem+json").body("code", equalTo("not_found"));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"status\":1}")
                .when().put(path(account) + "/" + id).then().statusCode(404);
    }

    @Test
    void anotherAccountsWebhookIsNotFoundAndAnotherAccountsPathForbidden() {
        UUID owner = UUID.randomUUID();
        UUID intruder = UUID.randomUUID();
        String id = create(owner, BODY).getString("uuid");
        String token = TestTokens.admin(intruder);
        String foreign = path(intruder) + "/" + id;
        given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"status\":-1}")
                .when().put(foreign).then().statusCode(404).body("code", equalTo("not_found"));
        given().auth().oauth2(token).when().delete(foreign).then().statusCode(404);
        given().auth().oauth2(token).when().get(foreign + "/deliveries").then().statusCode(404);
        given().auth().oauth2(token).when().post(foreign + "/deliveries/" + UUID.randomUUID() + "/redeliver")
                .then().statusCode(404);
        given().auth().oauth2(token).when().get(path(owner)).then().statusCode(403).body("code", equalTo("forbidden"));
        given().auth().oauth2(token).contentType(ContentType.JSON).body(BODY).when().post(path(owner))
                .then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(token).when().delete(path(owner) + "/" + id).then().statusCode(403);
        // the owner's webhook is untouched
        given().auth().oauth2(TestTokens.admin(owner)).when().get(path(owner))
                .then().body("webhooks[0].status", equalTo(1));
        // an id that is not a UUID names nothing
        given().auth().oauth2(TestTokens.admin(owner)).when().delete(path(owner) + "/not-a-uuid")
                .then().statusCode(404);
    }

    @Test
    void readOnlyKeysReadButNeverWriteAndCallsWithoutIdentityAreRefused() {
        UUID account = UUID.randomUUID();
        String id = create(account, BODY).getString("uuid");
        String readOnly = TestTokens.apiKey(account, "read_only");
        given().auth().oauth2(readOnly).when().get(path(account)).then().statusCode(200);
        given().auth().oauth2(readOnly).when().get(path(account) + "/" + id + "/deliveries").then().statusCode(200);
        given().auth().oauth2(readOnly).contentType(ContentType.JSON).body(BODY).when().post(path(account))
                .then().statusCode(403).body("code", equalTo("forbidden"));
        given().auth().oauth2(readOnly).contentType(ContentType.JSON).body("{\"status\":-1}")
                .when().put(path(account) + "/" + id).then().statusCode(403);
        given().auth().oauth2(readOnly).when().delete(path(account) + "/" + id).then().statusCode(403);
        given().auth().oauth2(readOnly).when().post(path(account) + "/" + id + "/deliveries/" + UUID.randomUUID()
                + "/redeliver").then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).when().get(path(account)).then().statusCode(403);
        given().when().get(path(account)).then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.expired(account)).when().get(path(account)).then().statusCode(401);
    }
}
