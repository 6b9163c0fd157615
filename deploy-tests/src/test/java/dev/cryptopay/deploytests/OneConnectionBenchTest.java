package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/one-connection.py, the benchmark's reading of what the gateway adds to one request (docs/decisions.md §86),
 * against two small HTTP servers of this test's: it reports the delay one of them adds, sends each pair's two requests
 * for the same merchant (the same line of both header files), writes the body, and counts answers that are not 2xx.
 */
class OneConnectionBenchTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final int DELAY_MS = 8;

    final List<HttpServer> servers = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        servers.forEach(server -> server.stop(0));
    }

    /** A server answering every request after {@code delayMs} with {@code status}, noting X-Merchant and the body. */
    private HttpServer server(int delayMs, int status, List<String> merchants, List<String> bodies) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> answer(exchange, delayMs, status, merchants, bodies));
        server.start();
        servers.add(server);
        return server;
    }

    private static void answer(HttpExchange exchange, int delayMs, int status, List<String> merchants,
            List<String> bodies) throws IOException {
        merchants.add(exchange.getRequestHeaders().getFirst("X-Merchant"));
        bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        try {
            Thread.sleep(delayMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        byte[] answer = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    private Path headers(String name, String... lines) throws IOException {
        return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    private JsonNode run(HttpServer gateway, HttpServer direct, Path gatewayHeaders, Path directHeaders, int pairs,
            String body) throws IOException {
        List<String> command = new ArrayList<>(List.of("python3", "bench/one-connection.py", "POST", "/transaction",
                "http://127.0.0.1:" + gateway.getAddress().getPort(), gatewayHeaders.toString(),
                "http://127.0.0.1:" + direct.getAddress().getPort(), directHeaders.toString(),
                String.valueOf(pairs), body));
        Repo.Result result = Repo.run(command, Map.of());
        assertEquals(0, result.exitCode(), result.stderr());
        return JSON.readTree(result.stdout());
    }

    @Test
    void reportsTheDelayOnePathAddsAndPairsTheSameMerchant() throws Exception {
        List<String> gatewayMerchants = Collections.synchronizedList(new ArrayList<>());
        List<String> directMerchants = Collections.synchronizedList(new ArrayList<>());
        List<String> gatewayBodies = Collections.synchronizedList(new ArrayList<>());
        List<String> directBodies = Collections.synchronizedList(new ArrayList<>());
        HttpServer gateway = server(DELAY_MS, 201, gatewayMerchants, gatewayBodies);
        HttpServer direct = server(0, 201, directMerchants, directBodies);
        // one line per merchant, a request's headers separated by a tab
        Path gatewayHeaders = headers("gateway.txt", "X-Merchant: a\tX-Publishable-Key: pk_1:a",
                "X-Merchant: b\tX-Publishable-Key: pk_1:b", "X-Merchant: c\tX-Publishable-Key: pk_1:c");
        Path directHeaders = headers("direct.txt", "X-Merchant: a\tAuthorization: Bearer ta",
                "X-Merchant: b\tAuthorization: Bearer tb", "X-Merchant: c\tAuthorization: Bearer tc");

        JsonNode report = run(gateway, direct, gatewayHeaders, directHeaders, 60, "{\"amount\":25}");

        assertEquals(60, report.path("pairs").asInt());
        assertEquals(0, report.path("errors").asInt());
        double adds = report.path("adds_p50").asDouble();
        assertTrue(adds >= DELAY_MS - 1 && adds < DELAY_MS + 6, "the gateway server's " + DELAY_MS + " ms, read as "
                + adds + " ms: " + report);
        double pairwise = report.path("median_pair_difference").asDouble();
        assertTrue(pairwise >= DELAY_MS - 1 && pairwise < DELAY_MS + 6, "median of the pairs: " + report);
        // Each pair sends both requests for the same merchant: both servers saw the same merchants in the same order
        // (the order of the two requests within a pair alternates, the sequence of pairs does not).
        assertEquals(gatewayMerchants, directMerchants);
        assertEquals(60, gatewayMerchants.size());
        assertTrue(gatewayMerchants.containsAll(List.of("a", "b", "c")), "merchants picked: " + gatewayMerchants);
        assertTrue(gatewayBodies.stream().allMatch("{\"amount\":25}"::equals), "bodies: " + gatewayBodies);
        assertTrue(directBodies.stream().allMatch("{\"amount\":25}"::equals), "bodies: " + directBodies);
    }

    @Test
    void countsAnswersThatAreNotSuccessful() throws Exception {
        List<String> ignored = Collections.synchronizedList(new ArrayList<>());
        HttpServer gateway = server(0, 503, ignored, Collections.synchronizedList(new ArrayList<>()));
        HttpServer direct = server(0, 201, ignored, Collections.synchronizedList(new ArrayList<>()));
        Path one = headers("one.txt", "X-Merchant: a");

        JsonNode report = run(gateway, direct, one, one, 10, "{}");

        assertEquals(10, report.path("errors").asInt(), "every gateway answer was a 503: " + report);
    }
}
