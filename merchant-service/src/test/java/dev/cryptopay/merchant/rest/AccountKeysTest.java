package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.security.KeyHash;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class AccountKeysTest {

    @Inject
    EntityManager em;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    private JsonPath newAccount() {
        return given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"name\":\"Acme\",\"email\":\"ops@acme.example\"}")
                .when().post("/operator/accounts")
                .then().statusCode(201)
                .body("accountUUID", matchesPattern("[0-9a-f-]{36}"))
                .body("apiKey.generatedKey", matchesPattern("ak_[A-Za-z0-9_-]{32}"))
                .extract().jsonPath();
    }

    @Test
    void operatorCreatesAnAccountWithAnAdminKeyAndPublishesItsHashOnly() {
        JsonPath account = newAccount();
        String apiKey = account.getString("apiKey.generatedKey");
        assertEquals(32, Base64.getDecoder().decode(account.getString("apiKey.privateKey")).length);

        List<?> stored = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select payload from outbox_event where topic = 'payments.keys.v1' and message_key in "
                        + "(select cast(id as varchar) from account_key where account_id = ?1)")
                .setParameter(1, UUID.fromString(account.getString("accountUUID"))).getResultList());
        assertEquals(1, stored.size());
        String payload = stored.get(0).toString();
        assertTrue(payload.contains(KeyHash.of(apiKey)), payload);
        assertTrue(payload.contains("\"type\":\"key.updated\""), payload);
        assertTrue(!payload.contains(apiKey), "the plain key never leaves the service");
    }

    @Test
    void onlyTheOperatorCreatesAccounts() {
        given().auth().oauth2(TestTokens.admin(UUID.randomUUID())).contentType(ContentType.JSON)
                .body("{\"name\":\"Acme\",\"email\":\"ops@acme.example\"}")
                .when().post("/operator/accounts")
                .then().statusCode(403).contentType("application/problem+json");
    }

    @Test
    void accountCreationNamesEveryInvalidField() {
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"name\":\"\",\"email\":\"not-an-email\"}")
                .when().post("/operator/accounts")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("validation_failed"))
                .body("errors.field", hasItem("name"))
                .body("errors.field", hasItem("email"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"name\": ")
                .when().post("/operator/accounts")
                .then().statusCode(400).contentType("application/problem+json");
    }

    @Test
    void createsListsMasksAndRevokesKeys() {
        JsonPath account = newAccount();
        UUID accountId = UUID.fromString(account.getString("accountUUID"));
        String admin = TestTokens.admin(accountId);
        String merchant = TestAccounts.newMerchant(accountId, TestAccounts.MINIMAL_MERCHANT);

        String readOnly = given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"keyType\":\"api\",\"name\":\"reports\",\"role\":\"read_only\"}")
                .when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(201)
                .body("generatedKey", matchesPattern("ak_.{32}"))
                .extract().path("generatedKey");
        String publishable = given().auth().oauth2(admin).contentType(ContentType.JSON)
                .queryParam("merchantUUID", merchant)
                .body("{\"keyType\":\"publishable\",\"name\":\"checkout\"}")
                .when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(201)
                .body("generatedKey", matchesPattern("pk_.{32}"))
                .body("privateKey", equalTo(""))
                .extract().path("generatedKey");

        JsonPath listing = given().auth().oauth2(TestTokens.apiKey(accountId, "read_only"))
                .when().get("/accounts/" + accountId + "/keys")
                .then().statusCode(200)
                .body("keys.api", hasSize(2))
                .body("keys.api.key", hasItem("ak_…" + readOnly.substring(readOnly.length() - 4)))
                .body("keys.api.key", not(hasItem(readOnly)))
                .body("keys.api.role", hasItem("read_only"))
                .body("keys.api.status", hasItem(1))
                .body("keys.publishable", hasSize(1))
                .body("keys.publishable[0].key", equalTo(publishable))
                .body("keys.publishable[0].merchantUUID", equalTo(merchant))
                .extract().jsonPath();

        String keyId = listing.getString("keys.publishable[0].UUID");
        given().auth().oauth2(admin).when().delete("/accounts/" + accountId + "/keys/" + keyId)
                .then().statusCode(204);
        given().auth().oauth2(admin).when().delete("/accounts/" + accountId + "/keys/" + keyId)
                .then().statusCode(204);
        given().auth().oauth2(admin).when().get("/accounts/" + accountId + "/keys")
                .then().statusCode(200).body("keys.publishable[0].status", equalTo(-1));
        given().auth().oauth2(admin).when().delete("/accounts/" + accountId + "/keys/" + UUID.randomUUID())
                .then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void keyRequestsAreValidatedFieldByField() {
        UUID accountId = UUID.fromString(newAccount().getString("accountUUID"));
        String admin = TestTokens.admin(accountId);
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"keyType\":\"secret\",\"role\":\"root\"}")
                .when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(400)
                .body("errors.field", hasItem("keyType"))
                .body("errors.field", hasItem("name"))
                .body("errors.field", hasItem("role"));
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .queryParam("merchantUUID", "nope")
                .body("{\"keyType\":\"publishable\",\"name\":\"x\"}")
                .when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(400)
                .body("errors.field", hasItem("merchantUUID"));
    }

    @Test
    void aPublishableKeyIsScopedOnlyToAnExistingMerchantOfTheSameAccount() {
        UUID accountId = UUID.fromString(newAccount().getString("accountUUID"));
        UUID other = UUID.fromString(newAccount().getString("accountUUID"));
        String foreignMerchant = TestAccounts.newMerchant(other, TestAccounts.MINIMAL_MERCHANT);
        for (String merchant : List.of(foreignMerchant, UUID.randomUUID().toString())) {
            given().auth().oauth2(TestTokens.admin(accountId)).contentType(ContentType.JSON)
                    .queryParam("merchantUUID", merchant)
                    .body("{\"keyType\":\"publishable\",\"name\":\"x\"}")
                    .when().post("/accounts/" + accountId + "/keys")
                    .then().statusCode(404).body("code", equalTo("not_found"));
        }
        given().auth().oauth2(TestTokens.admin(accountId)).when().get("/accounts/" + accountId + "/keys")
                .then().statusCode(200).body("keys.publishable", hasSize(0));
    }

    @Test
    void activeKeysPerAccountAreCappedAndARevokedKeyFreesItsPlace() {
        UUID accountId = UUID.fromString(newAccount().getString("accountUUID"));
        String admin = TestTokens.admin(accountId);
        // the account's first API key is one of the 100 (cryptopay.limits.api-keys default)
        String last = null;
        for (int i = 1; i < 100; i++) {
            last = given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"keyType\":\"" + (i % 2 == 0 ? "api" : "publishable") + "\",\"name\":\"k" + i + "\"}")
                    .when().post("/accounts/" + accountId + "/keys")
                    .then().statusCode(201).extract().path("generatedKey");
        }
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"keyType\":\"publishable\",\"name\":\"one too many\"}")
                .when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("limit_reached"));

        String lastKey = last;
        String lastId = given().auth().oauth2(admin).when().get("/accounts/" + accountId + "/keys")
                .then().statusCode(200).extract().jsonPath()
                .getString("keys.publishable.find { it.key == '" + lastKey + "' }.UUID");
        given().auth().oauth2(admin).when().delete("/accounts/" + accountId + "/keys/" + lastId)
                .then().statusCode(204);
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"keyType\":\"api\",\"name\":\"in its place\"}")
                .when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(201);
    }

    @Test
    void anotherAccountsKeyOrARoleWithoutWriteAccessIsRefused() {
        UUID accountId = UUID.fromString(newAccount().getString("accountUUID"));
        given().auth().oauth2(TestTokens.admin(UUID.randomUUID()))
                .when().get("/accounts/" + accountId + "/keys")
                .then().statusCode(403).body("code", equalTo("forbidden"));
        given().auth().oauth2(TestTokens.apiKey(accountId, "read_only")).contentType(ContentType.JSON)
                .body("{\"keyType\":\"api\",\"name\":\"x\"}")
                .when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(403);
    }

    @Test
    void forgedOrExpiredIdentityTokensAreRefused() {
        UUID accountId = UUID.fromString(newAccount().getString("accountUUID"));
        given().auth().oauth2(TestTokens.expired(accountId))
                .when().get("/accounts/" + accountId + "/keys")
                .then().statusCode(401).contentType("application/problem+json");
        String token = TestTokens.admin(accountId);
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"iss\":\"cryptopay-gateway\",\"aud\":\"cryptopay-services\",\"sub\":\"x\",\"groups\":[\"admin\"],"
                        + "\"acct\":\"" + accountId + "\",\"exp\":" + (System.currentTimeMillis() / 1000 + 60) + "}")
                        .getBytes()) + "." + parts[2];
        given().auth().oauth2(forged)
                .when().get("/accounts/" + accountId + "/keys")
                .then().statusCode(401).body("detail", containsString("invalid"));
        given().header("X-Api-Key", "ak_whatever")
                .when().get("/accounts/" + accountId + "/keys")
                .then().statusCode(401);
    }
}
