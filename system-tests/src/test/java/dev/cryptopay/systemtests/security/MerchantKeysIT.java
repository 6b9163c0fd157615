package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security findings of the merchant keys (docs/security.md; docs/decisions.md §36, §37), through the gateway:
 * <ul>
 * <li>"a publishable key can be created for another account's or a nonexistent merchant": the merchant a publishable
 * key is scoped to must be one of the account's own; any other is the 404 of an unknown merchant, and no key is
 * made;</li>
 * <li>"an account multiplies its limits by creating keys": at most 100 active keys (API and publishable together) per
 * account by default; one more answers 409 {@code limit_reached}, and revoking one frees its place.</li>
 * </ul>
 */
class MerchantKeysIT {

    @BeforeAll
    static void startSuite() {
        Suite.throughGateway();
    }

    @Test
    void aPublishableKeyIsMadeOnlyForOneOfTheAccountsOwnMerchants() {
        SandboxAccount victim = SandboxAccount.create("Keys IT victim");
        String victimMerchant = victim.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        SandboxAccount attacker = SandboxAccount.create("Keys IT attacker");

        for (String merchant : new String[] { victimMerchant, UUID.randomUUID().toString() }) {
            createKey(attacker, "publishable", merchant)
                    .then().statusCode(404)
                    .contentType(startsWith("application/problem+json"))
                    .body("code", equalTo("not_found"));
        }
        given().header("X-Api-Key", attacker.apiKey()).get("/accounts/" + attacker.accountId() + "/keys")
                .then().statusCode(200).body("keys.publishable", hasSize(0));

        String own = attacker.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        createKey(attacker, "publishable", own).then().statusCode(201);
    }

    @Test
    void activeKeysPerAccountAreCappedAtTheDocumentedDefault() {
        SandboxAccount account = SandboxAccount.create("Keys IT cap");
        // the account's first API key counts: 99 more reach the default cap of 100
        String last = null;
        for (int i = 1; i < 100; i++) {
            last = createKey(account, i % 2 == 0 ? "api" : "publishable", null)
                    .then().statusCode(201).extract().path("generatedKey");
        }
        for (String kind : new String[] { "api", "publishable" }) {
            createKey(account, kind, null)
                    .then().statusCode(409)
                    .contentType(startsWith("application/problem+json"))
                    .body("code", equalTo("limit_reached"));
        }
        given().header("X-Api-Key", account.apiKey()).delete("/accounts/" + account.accountId() + "/keys/"
                + account.keyId(last)).then().statusCode(204);
        createKey(account, "api", null).then().statusCode(201);
        createKey(account, "api", null).then().statusCode(409).body("code", equalTo("limit_reached"));
    }

    /** One key creation; a 429 of the gateway's rate limits is waited out, never counted as an answer. */
    private static Response createKey(SandboxAccount account, String keyType, String merchantUUID) {
        for (int attempt = 0; ; attempt++) {
            var request = given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                    .body("{\"keyType\":\"" + keyType + "\",\"name\":\"it\"}");
            if (merchantUUID != null) {
                request.queryParam("merchantUUID", merchantUUID);
            }
            Response response = request.when().post("/accounts/" + account.accountId() + "/keys");
            if (response.statusCode() != 429 || attempt >= 20) {
                return response;
            }
            String retryAfter = response.header("Retry-After");
            sleepSeconds(retryAfter == null ? 1 : Long.parseLong(retryAfter));
        }
    }

    private static void sleepSeconds(long seconds) {
        try {
            Thread.sleep(Math.max(1, seconds) * 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
