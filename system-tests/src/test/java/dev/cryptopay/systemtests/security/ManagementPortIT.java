package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    @ValueSource(strings = {"/q/metrics", "/q/health/ready", "/q/openapi"})
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

    /** A path the management port does not serve: the suite's problem+json 404, not an HTML page (decisions §124). */
    @ParameterizedTest
    @ValueSource(strings = {"gateway", "merchant", "transaction", "subscription", "webhook", "reporting"})
    void everyServicesManagementPortAnswersAnUnknownPathWithAProblem(String service) {
        String management = "http://127.0.0.1:" + Suite.managementPort(Suite.port(service));
        for (String method : List.of("GET", "POST")) {
            given().baseUri(management).request(method, "/q/no-such-endpoint")
                    .then().statusCode(404)
                    .contentType(startsWith("application/problem+json"))
                    .body("code", equalTo("not_found"));
        }
    }

    /**
     * The service's own OpenAPI document, as its module's tests wrote it into docs/openapi/&lt;service&gt;/ (committed):
     * served from the packaged copy, not rebuilt at the start (ServiceApiDocument), YAML unless JSON is asked for
     * by suffix, format parameter or Accept header.
     */
    @ParameterizedTest
    @ValueSource(strings = {"gateway", "merchant", "transaction", "subscription", "webhook", "reporting"})
    void everyServiceServesItsCommittedOpenApiDocumentOnItsManagementPort(String service) throws IOException {
        String management = "http://127.0.0.1:" + Suite.managementPort(Suite.port(service));
        Path committed = Path.of("..", "docs", "openapi", service + "-service");
        String yaml = Files.readString(committed.resolve("openapi.yaml"));
        String json = Files.readString(committed.resolve("openapi.json"));

        for (String path : List.of("/q/openapi", "/q/openapi.yaml", "/q/openapi.yml")) {
            String body = given().baseUri(management).get(path)
                    .then().statusCode(200).contentType(startsWith("application/yaml"))
                    .extract().asString();
            assertEquals(yaml, body, service + " " + path);
        }
        String byFormat = given().baseUri(management).queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).contentType(startsWith("application/json"))
                .body("info.title", equalTo("cryptopay " + service + "-service"))
                .extract().asString();
        assertEquals(json, byFormat, service + " ?format=json");
        given().baseUri(management).accept("application/json").get("/q/openapi")
                .then().statusCode(200).contentType(startsWith("application/json"));
        given().baseUri(management).get("/q/openapi.json")
                .then().statusCode(200).contentType(startsWith("application/json"))
                .body("openapi", startsWith("3."));
    }
}
