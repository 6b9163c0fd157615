package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the gateway answers itself when a request cannot be routed or its service cannot be reached: an unknown path
 * is 404, a known path with another method 405, a service that is down 503 with Retry-After (no downstream service
 * runs during this module's tests), each as problem+json.
 */
@QuarkusTest
class GatewayUnroutedTest {

    @BeforeAll
    static void logOnFailure() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @ParameterizedTest
    @CsvSource({ "GET, /no/such/path, 404, not_found", "DELETE, /assets, 405, method_not_allowed" })
    void answersUnknownPathsAndMethodsItself(String method, String path, int status, String code) {
        given().when().request(method, path)
                .then().statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }

    @ParameterizedTest
    @CsvSource({ "GET, /assets" })
    void aServiceThatIsDownIsA503WithRetryAfter(String method, String path) {
        given().when().request(method, path)
                .then().statusCode(503)
                .header("Retry-After", notNullValue())
                .body("code", equalTo("service_unavailable"));
    }
}
