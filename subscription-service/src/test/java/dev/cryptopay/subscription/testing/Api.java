package dev.cryptopay.subscription.testing;

import static io.restassured.RestAssured.given;

import dev.cryptopay.support.testing.TestTokens;
import io.restassured.path.json.JsonPath;
import java.util.UUID;

/** Reads through the API as an account's key would. */
public final class Api {

    private Api() {
    }

    public static JsonPath subscription(UUID account, String id) {
        return given().auth().oauth2(TestTokens.admin(account)).when().get("/subscriptions/" + id)
                .then().statusCode(200).extract().jsonPath();
    }

    /** The subscription's payments, newest first. */
    public static JsonPath payments(UUID account, String subscriptionId) {
        return given().auth().oauth2(TestTokens.admin(account)).queryParam("subscriptionId", subscriptionId)
                .queryParam("limit", 100).when().get("/subscriptionpayments")
                .then().statusCode(200).extract().jsonPath();
    }

    public static JsonPath events(UUID account, String subscriptionId) {
        return given().auth().oauth2(TestTokens.admin(account)).queryParam("limit", 100)
                .when().get("/subscriptions/" + subscriptionId + "/events")
                .then().statusCode(200).extract().jsonPath();
    }

    public static int retry(UUID account, String subscriptionId) {
        return given().auth().oauth2(TestTokens.admin(account)).when()
                .put("/subscriptionpayments/" + subscriptionId + "/retry").then().extract().statusCode();
    }
}
