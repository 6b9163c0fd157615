package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The gateway refuses a JSON body that breaks the suite's JSON rules before any service sees it (no service runs
 * behind the gateway in this module's tests: a body let through gets the gateway's 503).
 */
@QuarkusTest
class GatewayJsonTest {

    static final UUID ACCOUNT = UUID.randomUUID();
    static final String KEY = "ak_json_" + ACCOUNT;

    @BeforeAll
    static void seed() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        SeededKeys.admin(ACCOUNT, KEY);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"name\":\"a\"} xyz",
            "{\"name\":\"a\"}{\"name\":\"b\"}",
            "{\"name\":\"a\",\"name\":\"b\"}",
            "{\"amount\":NaN}",
            "{\"amount\":Infinity}",
            "{name:1}",
            "{\"name\":",
    })
    void aBrokenJsonBodyIs400MalformedJson(String body) {
        given().header("X-Api-Key", KEY).contentType("application/json").body(body)
                .post("/accounts/" + ACCOUNT + "/merchants")
                .then().statusCode(400).contentType("application/problem+json").body("code", equalTo("malformed_json"));
    }

    @Test
    void aDuplicateKeyIsNamed() {
        given().header("X-Api-Key", KEY).contentType("application/json")
                .body("{\"name\":\"a\",\"checkoutConfig\":{\"theme\":{},\"theme\":{}}}")
                .put("/accounts/" + ACCOUNT + "/config")
                .then().statusCode(400).body("code", equalTo("malformed_json"))
                .body("errors[0].field", equalTo("checkoutConfig.theme"));
    }

    @Test
    void bytesThatAreNotUtf8Are400() {
        byte[] body = "{\"name\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
        given().header("X-Api-Key", KEY).contentType("application/json").body(body)
                .post("/accounts/" + ACCOUNT + "/merchants")
                .then().statusCode(400).body("code", equalTo("malformed_json"));
    }

    @Test
    void aBrokenBodyIsRefusedBeforeIdempotencyAndAValidOneIsForwarded() {
        String idempotencyKey = "json-" + UUID.randomUUID();
        given().header("X-Api-Key", KEY).header("Idempotency-Key", idempotencyKey).contentType("application/json")
                .body("{\"name\":\"a\"} xyz").post("/accounts/" + ACCOUNT + "/merchants")
                .then().statusCode(400);
        // The same key with a valid body is not a reuse (422): the refused body never claimed it.
        given().header("X-Api-Key", KEY).header("Idempotency-Key", idempotencyKey).contentType("application/json")
                .body("{\"name\":\"a\"}").post("/accounts/" + ACCOUNT + "/merchants")
                .then().statusCode(503);
    }

    @Test
    void aBodyOfAnotherMediaTypeIsLeftToTheService() {
        given().header("X-Api-Key", KEY).contentType("text/plain").body("{\"name\":\"a\"} xyz")
                .post("/accounts/" + ACCOUNT + "/merchants")
                .then().statusCode(503);
    }
}
