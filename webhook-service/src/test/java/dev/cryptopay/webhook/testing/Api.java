package dev.cryptopay.webhook.testing;

import static io.restassured.RestAssured.given;

import dev.cryptopay.support.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/** Calls of the webhook API as an account's admin key would make them through the gateway. */
public final class Api {

    private Api() {
    }

    /** Creates a webhook and returns the creation answer. */
    public static JsonPath createWebhook(UUID account, String name, String url, List<String> events) {
        String json = "{\"name\":\"" + name + "\",\"url\":\"" + url + "\",\"events\":["
                + events.stream().map(e -> "\"" + e + "\"").collect(Collectors.joining(",")) + "]}";
        return given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body(json)
                .when().post("/accounts/" + account + "/webhooks")
                .then().statusCode(201).extract().jsonPath();
    }

    public static void setStatus(UUID account, String webhook, int status) {
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"status\":" + status + "}")
                .when().put("/accounts/" + account + "/webhooks/" + webhook)
                .then().statusCode(204);
    }

    public static JsonPath deliveries(UUID account, String webhook) {
        return given().auth().oauth2(TestTokens.admin(account)).queryParam("limit", 100)
                .when().get("/accounts/" + account + "/webhooks/" + webhook + "/deliveries")
                .then().statusCode(200).extract().jsonPath();
    }
}
