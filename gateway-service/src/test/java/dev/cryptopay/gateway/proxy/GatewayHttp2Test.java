package dev.cryptopay.gateway.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.support.testing.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests over HTTP/2 (cleartext, Java's HttpClient) reach their service whole, with their length: HTTP/2 has no
 * chunked encoding, and a request without Content-Length forwarded with neither a length nor chunking failed at its
 * first DATA frame, an ERROR in the gateway's log (docs/decisions.md §120). A multipart upload, which the gateway
 * streams, must declare its length over HTTP/2: 411 without it. A stand-in webhook-service records what it got.
 */
@QuarkusTest
class GatewayHttp2Test {

    static final UUID ACCOUNT = UUID.randomUUID();
    static final String ADMIN = "ak_h2_" + ACCOUNT;
    /** What the stand-in got: "METHOD path, Content-Length: n, body". */
    static final List<String> RECEIVED = new CopyOnWriteArrayList<>();
    static HttpServer webhookService;
    /** A request not answered by then failed (Java's HttpClient waits for ever by default). */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    private CapturedLog errors;
    private HttpClient client;
    private URI base;

    @BeforeAll
    static void start() throws Exception {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        SeededKeys.admin(ACCOUNT, ADMIN);
        webhookService = StandInService.start(9084, null, exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            RECEIVED.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + ", Content-Length: "
                    + exchange.getRequestHeaders().getFirst("Content-Length") + ", "
                    + new String(body, StandardCharsets.UTF_8));
        });
    }

    @AfterAll
    static void stop() {
        webhookService.stop(0);
    }

    @BeforeEach
    void open() throws Exception {
        errors = CapturedLog.everything();
        RECEIVED.clear();
        base = URI.create("http://127.0.0.1:" + RestAssured.port);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        // The connection's first request upgrades it to HTTP/2 (h2c); the requests under test come after it.
        HttpResponse<String> upgrade = client.send(get("/accounts/" + ACCOUNT + "/webhooks"),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, upgrade.version(), "the gateway speaks HTTP/2 on this connection");
        assertEquals(200, upgrade.statusCode());
        RECEIVED.clear();
    }

    @AfterEach
    void close() {
        client.close();
        errors.close();
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(ANSWER_WITHIN).header("X-Api-Key", ADMIN).build();
    }

    @Test
    void getsReachTheServiceWithoutAnError() throws Exception {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> answer = client.send(get("/accounts/" + ACCOUNT + "/webhooks"),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, answer.version());
            assertEquals(200, answer.statusCode());
            assertEquals("{\"ok\":true}", answer.body());
        }
        assertEquals(3, RECEIVED.size(), "received: " + RECEIVED);
        for (String received : RECEIVED) {
            assertTrue(received.startsWith("GET /accounts/" + ACCOUNT + "/webhooks, Content-Length: "), received);
            assertTrue(received.endsWith(", "), "no body: " + received);
        }
        assertEquals(List.of(), errors.lines(Level.SEVERE), "no ERROR while forwarding HTTP/2 GETs");
    }

    static final String JSON = "{\"url\":\"https://merchant.example/hooks\",\"events\":[\"transaction.confirmed\"]}";

    @Test
    void aJsonBodyWithContentLengthReachesTheServiceWhole() throws Exception {
        // What a Java integration sends: the gateway reads a JSON body before forwarding it, and the proxy's pause of
        // the request, ended by then, failed over HTTP/2 and left the client without an answer.
        postJson(HttpRequest.BodyPublishers.ofString(JSON));
    }

    @Test
    void aJsonBodyWithoutContentLengthReachesTheServiceWhole() throws Exception {
        // An input stream publishes a body of unknown length: no Content-Length on the HTTP/2 request.
        postJson(HttpRequest.BodyPublishers.ofInputStream(
                () -> new ByteArrayInputStream(JSON.getBytes(StandardCharsets.UTF_8))));
    }

    private void postJson(HttpRequest.BodyPublisher body) throws Exception {
        HttpRequest post = HttpRequest.newBuilder(base.resolve("/accounts/" + ACCOUNT + "/webhooks"))
                .timeout(ANSWER_WITHIN).header("X-Api-Key", ADMIN).header("Content-Type", "application/json")
                .POST(body)
                .build();

        HttpResponse<String> answer = client.send(post, HttpResponse.BodyHandlers.ofString());

        assertEquals(HttpClient.Version.HTTP_2, answer.version());
        assertEquals(200, answer.statusCode());
        assertEquals(List.of("POST /accounts/" + ACCOUNT + "/webhooks, Content-Length: " + JSON.length() + ", " + JSON),
                RECEIVED);
        assertEquals(List.of(), errors.lines(Level.SEVERE));
    }

    @Test
    void aMultipartUploadWithoutContentLengthIsAnswered411() throws Exception {
        String form = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\nxx\r\n--b--\r\n";
        HttpRequest upload = HttpRequest.newBuilder(
                        base.resolve("/accounts/" + ACCOUNT + "/merchants/" + UUID.randomUUID() + "/uploadlogo"))
                .timeout(ANSWER_WITHIN).header("X-Api-Key", ADMIN)
                .header("Content-Type", "multipart/form-data; boundary=b")
                .POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(form.getBytes(StandardCharsets.UTF_8))))
                .build();

        HttpResponse<String> answer = client.send(upload, HttpResponse.BodyHandlers.ofString());

        assertEquals(411, answer.statusCode(), answer.body());
        assertEquals("application/problem+json", answer.headers().firstValue("Content-Type").orElse(null));
        assertTrue(answer.body().contains("\"code\":\"length_required\""), answer.body());
        assertEquals(List.of(), errors.lines(Level.SEVERE));
    }
}
