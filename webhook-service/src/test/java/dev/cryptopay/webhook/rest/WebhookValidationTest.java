package dev.cryptopay.webhook.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;

import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.util.Arrays;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The validation table: each request names exactly the invalid fields, as a 400 problem+json, never a 500. */
@QuarkusTest
class WebhookValidationTest {

    private static final UUID ACCOUNT = UUID.randomUUID();
    private static final String LONG_NAME = "n".repeat(256);

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    static Stream<Arguments> invalidCreates() {
        return Stream.of(
                Arguments.of("{}", "name,url,events"),
                Arguments.of("{\"name\":\"  \",\"url\":\"https://a.example\",\"events\":[\"*\"]}", "name"),
                Arguments.of("{\"name\":\"" + LONG_NAME + "\",\"url\":\"https://a.example\",\"events\":[\"*\"]}", "name"),
                Arguments.of("{\"name\":\"n\",\"url\":\"ftp://a.example/x\",\"events\":[\"*\"]}", "url"),
                Arguments.of("{\"name\":\"n\",\"url\":\"a.example/hook\",\"events\":[\"*\"]}", "url"),
                Arguments.of("{\"name\":\"n\",\"url\":\"https:///nohost\",\"events\":[\"*\"]}", "url"),
                Arguments.of("{\"name\":\"n\",\"url\":\"https://a.example/" + "p".repeat(2048) + "\",\"events\":[\"*\"]}", "url"),
                Arguments.of("{\"name\":\"n\",\"url\":\"https://a.example\",\"events\":[]}", "events"),
                Arguments.of("{\"name\":\"n\",\"url\":\"https://a.example\",\"events\":[\"transaction.success\",\"transaction.paid\"]}", "events[1]"),
                Arguments.of("{\"name\":\"n\",\"url\":\"https://a.example\",\"events\":[\"key.updated\",null,\"merchant.updated\"]}", "events[0],events[1],events[2]"),
                Arguments.of("{\"name\":\"n\",\"url\":\"https://a.example\",\"events\":\"transaction.success\"}", "events"),
                Arguments.of("{\"name\":\"n\",\"url\":\"https://a.example\",\"events\":[{\"type\":\"x\"}]}", "events[0]"),
                Arguments.of("{\"name\":\"\",\"url\":\"gopher://x\",\"events\":[\"nope\"]}", "name,url,events[0]"));
    }

    @ParameterizedTest
    @MethodSource("invalidCreates")
    void createNamesEveryInvalidField(String body, String fields) {
        given().auth().oauth2(TestTokens.admin(ACCOUNT)).contentType(ContentType.JSON).body(body)
                .when().post("/accounts/" + ACCOUNT + "/webhooks")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("validation_failed"))
                .body("status", equalTo(400))
                .body("type", not(emptyOrNullString()))
                .body("errors.field", containsInAnyOrder(Arrays.stream(fields.split(",")).toArray()))
                .body("errors.message", everyItem(not(emptyOrNullString())));
    }

    static Stream<Arguments> invalidUpdates() {
        return Stream.of(
                Arguments.of("{\"status\":0}", "status"),
                Arguments.of("{\"status\":2,\"name\":\"\"}", "status,name"),
                Arguments.of("{\"url\":\"mailto:ops@a.example\"}", "url"),
                Arguments.of("{\"events\":[]}", "events"),
                Arguments.of("{\"events\":[\"*\",\"transaction.done\"]}", "events[1]"),
                Arguments.of("{\"status\":\"enabled\"}", "status"),
                Arguments.of("{\"name\":\"" + LONG_NAME + "\"}", "name"));
    }

    @ParameterizedTest
    @MethodSource("invalidUpdates")
    void updateNamesEveryInvalidField(String body, String fields) {
        String id = given().auth().oauth2(TestTokens.admin(ACCOUNT)).contentType(ContentType.JSON)
                .body("{\"name\":\"n\",\"url\":\"https://a.example\",\"events\":[\"*\"]}")
                .when().post("/accounts/" + ACCOUNT + "/webhooks").then().statusCode(201).extract().path("uuid");
        given().auth().oauth2(TestTokens.admin(ACCOUNT)).contentType(ContentType.JSON).body(body)
                .when().put("/accounts/" + ACCOUNT + "/webhooks/" + id)
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("validation_failed"))
                .body("errors.field", containsInAnyOrder(Arrays.stream(fields.split(",")).toArray()));
    }

    @Test
    void malformedJsonAndWrongMediaTypeAreProblemsToo() {
        given().auth().oauth2(TestTokens.admin(ACCOUNT)).contentType(ContentType.JSON).body("{\"name\": ")
                .when().post("/accounts/" + ACCOUNT + "/webhooks")
                .then().statusCode(400).contentType("application/problem+json").body("code", equalTo("malformed_json"));
        given().auth().oauth2(TestTokens.admin(ACCOUNT)).contentType(ContentType.TEXT).body("name=x")
                .when().post("/accounts/" + ACCOUNT + "/webhooks")
                .then().statusCode(415).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.admin(ACCOUNT)).contentType(ContentType.JSON)
                .when().post("/accounts/" + ACCOUNT + "/webhooks")
                .then().statusCode(400).body("errors.field", containsInAnyOrder("name", "url", "events"));
    }

    @Test
    void everyWebhookEventTypeAndTheWildcardAreAccepted() {
        given().auth().oauth2(TestTokens.admin(ACCOUNT)).contentType(ContentType.JSON)
                .body("{\"name\":\"all\",\"url\":\"http://127.0.0.1:1/x\",\"events\":[\"*\",\"transaction.created\","
                        + "\"transaction.kyc_required\",\"transaction.payment_detected\",\"transaction.success\","
                        + "\"transaction.expired\",\"transaction.cancelled\",\"transaction.forfeited\",\"refund.created\","
                        + "\"refund.completed\",\"subscription.created\",\"subscription.paused\",\"subscription.resumed\","
                        + "\"subscription.canceled\",\"subscription.payment_failed\",\"subscription_payment.paid\"]}")
                .when().post("/accounts/" + ACCOUNT + "/webhooks")
                .then().statusCode(201);
    }
}
