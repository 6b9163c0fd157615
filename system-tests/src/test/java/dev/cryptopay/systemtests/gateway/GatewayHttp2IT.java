package dev.cryptopay.systemtests.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An integration on HTTP/2 (Java's HttpClient, cleartext, as an ingress may speak it to the gateway): reads, a JSON
 * creation and its Idempotency-Key replay through the gateway to merchant-service and its database
 * (docs/decisions.md §120; before it every HTTP/2 POST went unanswered).
 */
class GatewayHttp2IT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static SandboxAccount account;

    @BeforeAll
    static void setUp() {
        Suite.throughGateway();
        account = SandboxAccount.create("Gateway HTTP/2 IT");
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(Suite.gatewayUrl() + path)).timeout(Duration.ofSeconds(20))
                .header("X-Api-Key", account.apiKey());
    }

    @Test
    void readsCreationsAndReplaysOverHttp2() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            // The first request upgrades the connection (h2c); every later one is an HTTP/2 stream.
            HttpResponse<String> keys = client.send(request("/accounts/" + account.accountId() + "/keys").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, keys.version());
            assertEquals(200, keys.statusCode(), keys.body());

            String idempotencyKey = "h2-" + UUID.randomUUID();
            HttpRequest create = create("/accounts/" + account.accountId() + "/merchants", idempotencyKey,
                    SandboxAccount.MINIMAL_MERCHANT);
            HttpResponse<String> created = client.send(create, HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, created.version());
            assertEquals(201, created.statusCode(), created.body());
            String merchant = JSON.readTree(created.body()).get("UUID").asText();

            HttpResponse<String> replayed = client.send(create, HttpResponse.BodyHandlers.ofString());
            assertEquals(201, replayed.statusCode(), replayed.body());
            assertEquals("true", replayed.headers().firstValue("Idempotent-Replayed").orElse(null));
            assertEquals(merchant, JSON.readTree(replayed.body()).get("UUID").asText(), "the same merchant");

            HttpResponse<String> read = client.send(
                    request("/accounts/" + account.accountId() + "/merchants/" + merchant).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, read.statusCode(), read.body());
            JsonNode stored = JSON.readTree(read.body());
            assertEquals("Corner Shop", stored.get("name").asText());

            HttpResponse<String> list = client.send(
                    request("/accounts/" + account.accountId() + "/merchants").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, list.statusCode(), list.body());
            assertTrue(list.body().contains(merchant), "the created merchant is listed: " + list.body());
        }
    }

    /**
     * Bad input over HTTP/2 gets the same problem+json 400 as over HTTP/1.1 (docs/decisions.md §1) and stores
     * nothing; malformed JSON claims no Idempotency-Key (§6), and the connection serves the next stream: the valid
     * creation under the same key creates the merchant.
     */
    @Test
    void malformedAndInvalidJsonOverHttp2GetAProblemAndStoreNothing() throws Exception {
        String path = "/accounts/" + account.accountId() + "/merchants";
        String name = "h2-bad-" + UUID.randomUUID();
        String valid = SandboxAccount.MINIMAL_MERCHANT.replace("Corner Shop", name);
        String idempotencyKey = "h2-bad-" + UUID.randomUUID();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            HttpResponse<String> upgraded = client.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, upgraded.version());

            HttpResponse<String> malformed = client.send(create(path, idempotencyKey, valid + " xyz"),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, malformed.version());
            assertProblem(malformed, 400, "malformed_json");

            // a 400 from the service is an answer the key keeps (§6): this one gets a key of its own
            HttpResponse<String> invalid = client.send(create(path, "h2-invalid-" + UUID.randomUUID(),
                    valid.replace("\"country\":\"DE\"", "\"country\":\"Germany\"")),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode problem = assertProblem(invalid, 400, "validation_failed");
            assertEquals("country", problem.get("errors").get(0).get("field").asText(), invalid.body());

            HttpResponse<String> created = client.send(create(path, idempotencyKey, valid),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
            assertEquals(null, created.headers().firstValue("Idempotent-Replayed").orElse(null),
                    "the malformed request left the key free");
        }
        assertEquals(1, ServiceDatabases.count("merchant", "select count(*) from merchant where name = ?", name));
    }

    private static HttpRequest create(String path, String idempotencyKey, String body) {
        return request(path).header("Content-Type", "application/json").header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static JsonNode assertProblem(HttpResponse<String> response, int status, String code) throws Exception {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(null));
        JsonNode problem = JSON.readTree(response.body());
        assertEquals(code, problem.get("code").asText(), response.body());
        return problem;
    }
}
