package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security finding "issued secrets kept by idempotency" (docs/security.md, docs/decisions.md §28): a replay of a
 * creating call with the same Idempotency-Key returned the full API key and private key for 24 hours from a
 * plain-text store, and the record was shared by every key of the account. Now the replay answers the same status
 * with the secret fields null and {@code Idempotent-Replayed: true}, and another key of the account does not see it.
 */
class IdempotencySecretsIT {

    /** A merchant that takes USDC on polygon, which a subscription needs. */
    private static final String POLYGON_USDC_MERCHANT = """
            {"name":"%s","address1":"1 Main St","city":"Berlin","region":"BE","country":"DE","allowedCrypto":"USDC",
            "cryptoNetworkConfigs":{"polygon":{"cryptoAssetConfigs":{"USDC":
            {"minConfirmsLow":1,"minConfirmsHigh":1,"qrExpirationSeconds":900}}}}}""";

    private static SandboxAccount account;

    @BeforeAll
    static void startSuite() {
        Suite.throughGateway();
        account = SandboxAccount.create("Idempotency Secrets Ltd");
    }

    @Test
    void aReplayedKeyCreationNeverShowsTheSecretAgain() {
        String idempotencyKey = "key-" + UUID.randomUUID();
        String body = "{\"keyType\":\"api\",\"name\":\"ci\",\"role\":\"admin\"}";
        Response first = createKey(idempotencyKey, body);
        first.then().statusCode(201).header("Idempotent-Replayed", nullValue())
                .body("generatedKey", startsWith("ak_")).body("privateKey", notNullValue());

        createKey(idempotencyKey, body).then().statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("generatedKey", nullValue())
                .body("privateKey", nullValue());
        // the key issued the first time works: the replay only withheld it
        given().header("X-Api-Key", first.path("generatedKey").toString())
                .get("/accounts/" + account.accountId() + "/keys").then().statusCode(200);
    }

    @Test
    void aReplayedAccountCreationNeverShowsItsFirstKeyAgain() {
        String idempotencyKey = "account-" + UUID.randomUUID();
        String body = "{\"name\":\"Replay Ltd\",\"email\":\"it@example.com\"}";
        Response first = createAccount(idempotencyKey, body);
        first.then().statusCode(201).body("apiKey.generatedKey", startsWith("ak_"));

        createAccount(idempotencyKey, body).then().statusCode(201)
                .header("Idempotent-Replayed", "true")
                .body("accountUUID", equalTo(first.path("accountUUID")))
                .body("apiKey.generatedKey", nullValue())
                .body("apiKey.privateKey", nullValue());
    }

    @Test
    void anotherKeyOfTheSameAccountDoesNotGetTheFirstKeysAnswer() {
        String second = account.newKey("api", "admin", null);
        String idempotencyKey = "merchant-" + UUID.randomUUID();
        Response first = createMerchant(account.apiKey(), idempotencyKey);
        first.then().statusCode(201);
        Response other = createMerchant(second, idempotencyKey);
        other.then().statusCode(201).header("Idempotent-Replayed", nullValue());
        assertNotEquals(first.path("UUID").toString(), other.path("UUID").toString());
        // the same key still replays its own answer
        Response again = createMerchant(account.apiKey(), idempotencyKey);
        again.then().statusCode(201).header("Idempotent-Replayed", "true");
        assertEquals(first.path("UUID").toString(), again.path("UUID").toString());
    }

    @Test
    void aReplayedWebhookCreationOrRotationNeverShowsTheSigningSecretAgain() {
        String idempotencyKey = "webhook-" + UUID.randomUUID();
        String body = "{\"name\":\"replayed\",\"url\":\"http://127.0.0.1:9/hook\",\"events\":[\"*\"]}";
        Response first = post(account.apiKey(), idempotencyKey, "/accounts/" + account.accountId() + "/webhooks", body);
        first.then().statusCode(201).header("Idempotent-Replayed", nullValue()).body("signingKey", startsWith("wk_"));
        String webhook = first.path("uuid");

        post(account.apiKey(), idempotencyKey, "/accounts/" + account.accountId() + "/webhooks", body).then()
                .statusCode(201).header("Idempotent-Replayed", "true")
                .body("uuid", equalTo(webhook)).body("signingKey", nullValue());

        String rotateKey = "rotate-" + UUID.randomUUID();
        String rotatePath = "/accounts/" + account.accountId() + "/webhooks/" + webhook + "/rotate-secret";
        Response rotated = post(account.apiKey(), rotateKey, rotatePath, null);
        rotated.then().statusCode(200).body("signingKey", startsWith("wk_"));
        post(account.apiKey(), rotateKey, rotatePath, null).then().statusCode(200)
                .header("Idempotent-Replayed", "true").body("signingKey", nullValue());
        // the secret the first rotation issued is the webhook's secret: the replay withheld it and rotated nothing
        given().header("X-Api-Key", account.apiKey()).get("/accounts/" + account.accountId() + "/webhooks")
                .then().statusCode(200)
                .body("webhooks.find { it.uuid == '" + webhook + "' }.signingKey", equalTo(rotated.path("signingKey")));
    }

    /**
     * A retry whose first answer the gateway lost (decisions §122): the gateway frees the key after its time limit or
     * a client's hang-up, which the test does by deleting its record. The retry reaches the service, which answers
     * the first creation again (its secrets null) instead of issuing a second key, webhook or merchant.
     */
    @Test
    void aRetryWhoseAnswerTheGatewayLostGetsTheFirstCreationFromTheService() {
        String name = "lost-" + UUID.randomUUID();
        String keysPath = "/accounts/" + account.accountId() + "/keys";
        String keyBody = "{\"keyType\":\"api\",\"name\":\"" + name + "\",\"role\":\"read_only\"}";
        String hooksPath = "/accounts/" + account.accountId() + "/webhooks";
        String hookBody = "{\"name\":\"" + name + "\",\"url\":\"http://127.0.0.1:9/hook\",\"events\":[\"*\"]}";
        String merchantsPath = "/accounts/" + account.accountId() + "/merchants";
        String merchantBody = SandboxAccount.MINIMAL_MERCHANT.replace("Corner Shop", name);

        for (String[] creation : new String[][] {{keysPath, keyBody}, {hooksPath, hookBody},
                {merchantsPath, merchantBody}}) {
            Created first = create(account.apiKey(), creation[0], creation[1]);
            Response retry = retryAfterTheGatewayLostIt(account.apiKey(), first);
            retry.then().body("generatedKey", nullValue()).body("privateKey", nullValue())
                    .body("signingKey", nullValue());
            assertEquals(first.answer().jsonPath().getString("uuid"), retry.jsonPath().getString("uuid"));
            assertEquals(first.answer().jsonPath().getString("UUID"), retry.jsonPath().getString("UUID"));
        }
        assertEquals(1, ServiceDatabases.count("merchant", "select count(*) from account_key where name = ?", name));
        assertEquals(1, ServiceDatabases.count("webhook", "select count(*) from webhook where name = ?", name));
        assertEquals(1, ServiceDatabases.count("merchant", "select count(*) from merchant where name = ?", name));
    }

    /**
     * The same for the other creations their services keep (§122): a plan and a subscription (subscription-service)
     * and an operator's account (merchant-service, whose first API key the retry must not show again).
     */
    @Test
    void aRetryWhoseAnswerTheGatewayLostGetsTheFirstPlanSubscriptionOrAccountFromTheService() {
        String name = "lost-" + UUID.randomUUID();
        String merchant = account.newMerchant(POLYGON_USDC_MERCHANT.formatted(name));
        String planBody = "{\"accountId\":\"" + account.accountId() + "\",\"merchantId\":\"" + merchant
                + "\",\"planName\":\"%s\",\"amount\":\"10\",\"billingInterval\":\"MONTHLY\"}";
        // subscription-service learns of the merchant from merchant-service's events: a plan without a key first
        ServiceDatabases.awaitTrue(() -> post(account.apiKey(), null, "/subscriptionplans",
                planBody.formatted("known-" + name)).statusCode() == 201, "the merchant in subscription-service");

        Created plan = create(account.apiKey(), "/subscriptionplans", planBody.formatted(name));
        assertEquals(plan.answer().path("id").toString(),
                retryAfterTheGatewayLostIt(account.apiKey(), plan).path("id").toString());

        String email = name + "@example.com";
        Created subscription = create(account.apiKey(), "/subscriptions", "{\"planId\":\""
                + plan.answer().path("id") + "\",\"customerEmail\":\"" + email + "\",\"walletAddress\":\"0xpayer\","
                + "\"asset\":\"USDC\",\"network\":\"polygon\",\"billingInterval\":\"MONTHLY\"}");
        assertEquals(subscription.answer().path("id").toString(),
                retryAfterTheGatewayLostIt(account.apiKey(), subscription).path("id").toString());

        Created operatorAccount = create(null, "/operator/accounts",
                "{\"name\":\"" + name + "\",\"email\":\"it@example.com\"}");
        operatorAccount.answer().then().body("apiKey.generatedKey", startsWith("ak_"));
        retryAfterTheGatewayLostIt(null, operatorAccount).then()
                .body("accountUUID", equalTo(operatorAccount.answer().path("accountUUID")))
                .body("apiKey.generatedKey", nullValue()).body("apiKey.privateKey", nullValue());

        assertEquals(1, ServiceDatabases.count("subscription", "select count(*) from plan where plan_name = ?", name));
        assertEquals(1, ServiceDatabases.count("subscription",
                "select count(*) from subscription where customer_email = ?", email));
        assertEquals(1, ServiceDatabases.count("merchant", "select count(*) from account where name = ?", name));
        assertEquals(1, ServiceDatabases.count("merchant", "select count(*) from account_key where account_id = ?",
                UUID.fromString(operatorAccount.answer().path("accountUUID"))), "one key issued to the account");
    }

    /** A creation's first answer (201, not replayed) and the Idempotency-Key it was sent with. */
    private record Created(String path, String body, String idempotencyKey, Response answer) {
    }

    /** {@code apiKey} null: as the operator. */
    private static Created create(String apiKey, String path, String body) {
        String idempotencyKey = "lost-" + UUID.randomUUID();
        Response first = postAs(apiKey, idempotencyKey, path, body);
        first.then().statusCode(201).header("Idempotent-Replayed", nullValue());
        return new Created(path, body, idempotencyKey, first);
    }

    /** The gateway's record of the first answer deleted, the creation retried: the service's replay. */
    private static Response retryAfterTheGatewayLostIt(String apiKey, Created first) {
        assertEquals(1, ServiceDatabases.update("gateway",
                "delete from idempotency_record where idempotency_key = ?", first.idempotencyKey()),
                "the gateway kept the first answer");
        Response retry = postAs(apiKey, first.idempotencyKey(), first.path(), first.body());
        retry.then().statusCode(201).header("Idempotent-Replayed", "true");
        return retry;
    }

    private static Response postAs(String apiKey, String idempotencyKey, String path, String body) {
        return apiKey != null ? post(apiKey, idempotencyKey, path, body)
                : given().auth().oauth2(Suite.get().operatorToken()).header("Idempotency-Key", idempotencyKey)
                        .contentType(ContentType.JSON).body(body).post(path);
    }

    /** The idempotency identity covers the merchant named by X-MID (§28): one key, two merchants, two creations. */
    @Test
    void theSameIdempotencyKeyForAnotherMerchantIsAnotherRequest() {
        String merchantA = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        String merchantB = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        String idempotencyKey = "tx-" + UUID.randomUUID();
        String tx = "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"USDC\",\"network\":\"base\"}";
        Response forA = createTransaction(merchantA, idempotencyKey, tx);
        forA.then().statusCode(201).header("Idempotent-Replayed", nullValue());
        Response forB = createTransaction(merchantB, idempotencyKey, tx);
        forB.then().statusCode(201).header("Idempotent-Replayed", nullValue());
        assertNotEquals(forA.path("transactionId").toString(), forB.path("transactionId").toString());
        given().header("X-Api-Key", account.apiKey()).header("X-MID", merchantB)
                .get("/transaction/" + forB.path("transactionId")).then().statusCode(200);

        Response againA = createTransaction(merchantA, idempotencyKey, tx);
        againA.then().statusCode(201).header("Idempotent-Replayed", "true");
        assertEquals(forA.path("transactionId").toString(), againA.path("transactionId").toString());
    }

    private static Response post(String apiKey, String idempotencyKey, String path, String body) {
        var request = given().header("X-Api-Key", apiKey);
        if (idempotencyKey != null) {
            request = request.header("Idempotency-Key", idempotencyKey);
        }
        if (body != null) {
            request = request.contentType(ContentType.JSON).body(body);
        }
        return request.post(path);
    }

    private static Response createTransaction(String merchant, String idempotencyKey, String body) {
        return given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                .header("Idempotency-Key", idempotencyKey).contentType(ContentType.JSON).body(body)
                .post("/transaction");
    }

    private static Response createKey(String idempotencyKey, String body) {
        return given().header("X-Api-Key", account.apiKey()).header("Idempotency-Key", idempotencyKey)
                .contentType(ContentType.JSON).body(body).post("/accounts/" + account.accountId() + "/keys");
    }

    private static Response createAccount(String idempotencyKey, String body) {
        return postAs(null, idempotencyKey, "/operator/accounts", body);
    }

    private static Response createMerchant(String apiKey, String idempotencyKey) {
        return given().header("X-Api-Key", apiKey).header("Idempotency-Key", idempotencyKey)
                .contentType(ContentType.JSON).body(SandboxAccount.MINIMAL_MERCHANT)
                .post("/accounts/" + account.accountId() + "/merchants");
    }
}
