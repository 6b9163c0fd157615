package dev.cryptopay.support.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * A path the management port does not serve answers the suite's problem+json 404, whatever the method (Vert.x's
 * router answered an HTML page); what it does serve still answers (docs/decisions.md §124). Java's HttpClient, as
 * this module has no REST Assured; every request with a time limit.
 */
@QuarkusTest
class ManagementNotFoundTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @ConfigProperty(name = "quarkus.management.test-port")
    int managementPort;

    private HttpResponse<String> call(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .timeout(Duration.ofSeconds(10)).method(method, HttpRequest.BodyPublishers.noBody()).build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anUnknownPathIsAProblemNotFoundForEveryMethod() throws Exception {
        for (String method : new String[] {"GET", "POST", "PUT", "DELETE"}) {
            HttpResponse<String> answer = call(method, "/q/no-such-endpoint");
            assertEquals(404, answer.statusCode(), method);
            assertTrue(answer.headers().firstValue("content-type").orElse("").startsWith("application/problem+json"),
                    method + ": " + answer.headers().map());
            JsonNode problem = MAPPER.readTree(answer.body());
            assertEquals("not_found", problem.path("code").asText(), answer.body());
            assertEquals(404, problem.path("status").asInt());
            assertEquals("urn:cryptopay:problem:not_found", problem.path("type").asText());
            assertEquals("Path /q/no-such-endpoint was not found.", problem.path("detail").asText());
        }
        HttpResponse<String> outsideQ = call("GET", "/nothing/here");
        assertEquals(404, outsideQ.statusCode());
        assertEquals("not_found", MAPPER.readTree(outsideQ.body()).path("code").asText(), outsideQ.body());
    }

    @Test
    void theEndpointsItServesStillAnswer() throws Exception {
        HttpResponse<String> health = call("GET", "/q/health/live");
        assertEquals(200, health.statusCode(), health.body());
        assertEquals("UP", MAPPER.readTree(health.body()).path("status").asText());
        HttpResponse<String> metrics = call("GET", "/q/metrics");
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("jvm_memory_used_bytes"), "Prometheus text");
    }
}
