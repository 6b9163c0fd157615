package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Security finding "/q/metrics is public on the gateway" (docs/security.md): Quarkus' management endpoints (health,
 * metrics with every tenant's ids in its labels, the internal OpenAPI documents) are served on a separate management
 * port, HTTP port + 100, which the gateway never routes. The public port answers them as any unknown path: a
 * problem+json 404.
 */
class ManagementPortIT {

    private static final List<String> SERVICES =
            List.of("gateway", "merchant", "transaction", "subscription", "webhook", "reporting");

    @BeforeAll
    static void startSuite() {
        Suite.get();
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/q/metrics", "/q/health", "/q/health/ready", "/q/openapi", "/q/dev-ui", "/q/swagger-ui"})
    void theGatewaysPublicPortDoesNotServeManagementEndpoints(String path) {
        given().baseUri(Suite.gatewayUrl()).get(path)
                .then().statusCode(404)
                .contentType(startsWith("application/problem+json"))
                .body("code", equalTo("not_found"))
                .body(not(containsString("http_server_requests")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/q/metrics", "/q/health/ready"})
    void noServiceServesManagementEndpointsOnItsApiPort(String path) {
        for (String service : SERVICES) {
            given().baseUri("http://127.0.0.1:" + Suite.port(service)).get(path)
                    .then().statusCode(404);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gateway", "merchant", "transaction", "subscription", "webhook", "reporting"})
    void everyServiceServesHealthAndMetricsOnItsManagementPort(String service) {
        String management = "http://127.0.0.1:" + Suite.managementPort(Suite.port(service));
        given().baseUri(management).get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().baseUri(management).get("/q/metrics").then().statusCode(200)
                .body(containsString("jvm_memory_used_bytes"));
    }
}
