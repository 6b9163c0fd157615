package dev.cryptopay.systemtests.webhooks;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security review, caps per account (docs/decisions.md §25, §40), through the gateway: an account holds at most 100
 * webhooks by default; the 101st is 409 {@code limit_reached}, and deleting one makes room again.
 */
class WebhookLimitsIT {

    private static final int DEFAULT_CAP = 100;
    private static Suite suite;

    @BeforeAll
    static void startSuite() {
        suite = Suite.throughGateway();
    }

    @Test
    void theWebhookAfterTheHundredthIsRefusedUntilOneIsDeleted() {
        Account account = WebhookFixtures.newAccount(suite, "Many Hooks Shop");
        String first = null;
        for (int i = 0; i < DEFAULT_CAP; i++) {
            String id = WebhookFixtures.createWebhook(account, "hook " + i, "http://127.0.0.1:9/h" + i,
                    List.of("transaction.success")).getString("uuid");
            first = first == null ? id : first;
        }
        String body = "{\"name\":\"one too many\",\"url\":\"http://127.0.0.1:9/x\",\"events\":[\"*\"]}";
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON).body(body)
                .when().post("/accounts/" + account.id() + "/webhooks")
                .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("limit_reached"));
        given().header("X-Api-Key", account.apiKey()).when().get("/accounts/" + account.id() + "/webhooks")
                .then().statusCode(200).body("webhooks", hasSize(DEFAULT_CAP));

        given().header("X-Api-Key", account.apiKey()).when().delete("/accounts/" + account.id() + "/webhooks/" + first)
                .then().statusCode(204);
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON).body(body)
                .when().post("/accounts/" + account.id() + "/webhooks")
                .then().statusCode(201);
    }
}
