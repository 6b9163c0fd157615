package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.support.security.KeyHash;
import dev.cryptopay.support.testing.CapturedLog;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway knows which admitted requests it has not answered yet, and at a stop names those Quarkus' wait for
 * requests in flight gave up on (docs/decisions.md §117); a request whose client hung up before it could be forwarded
 * is not forwarded at all; a request whose answer the proxy could not finish ends with its connection closed
 * (§118). A stand-in webhook-service holds each request until the test lets it go; a stand-in merchant-service holds
 * the lookup of a key the gateway has not seen and cuts off its answers to everything else.
 */
@QuarkusTest
@TestProfile(GatewayUnansweredTest.HighVolume.class)
class GatewayUnansweredTest {

    /**
     * The benchmark's high-volume limits: the load case sends some thousands of requests with one key in 3 s, and with
     * the default per-key and per-account buckets most would be answered 429 by the gateway itself (not forwarded),
     * and the cases after it would find the key's bucket empty.
     */
    public static class HighVolume implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gateway.rate-limit.per-key.capacity", "1000000",
                    "gateway.rate-limit.per-key.refill-per-second", "1000000",
                    "cryptopay.limits.request-burst", "1000000",
                    "cryptopay.limits.requests-per-second", "1000000");
        }
    }

    static final UUID ACCOUNT = UUID.randomUUID();
    static final String ADMIN = "ak_unanswered_" + ACCOUNT;
    /** A key only merchant-service knows: the gateway's admission waits for its lookup. */
    static final String LATE_KEY = "ak_late_" + UUID.randomUUID();
    static final AtomicInteger FORWARDED = new AtomicInteger();
    static final CountDownLatch HELD = new CountDownLatch(1);
    static final CountDownLatch LET_GO = new CountDownLatch(1);
    static final CountDownLatch LOOKUP_HELD = new CountDownLatch(1);
    static final CountDownLatch LOOKUP_LET_GO = new CountDownLatch(1);
    static final CountDownLatch GONE_HELD = new CountDownLatch(1);
    static final CountDownLatch GONE_LET_GO = new CountDownLatch(1);
    static final CountDownLatch STREAM_HELD = new CountDownLatch(1);
    static final CountDownLatch STREAM_LET_GO = new CountDownLatch(1);
    static HttpServer webhookService;
    static HttpServer transactionService;
    static HttpServer merchantService;
    static HttpServer subscriptionService;
    static HttpServer reportingService;

    @Inject
    GatewayRouter router;

    @BeforeAll
    static void start() throws Exception {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        SeededKeys.admin(ACCOUNT, ADMIN);
        webhookService = StandInService.start(9084, Executors.newCachedThreadPool(), exchange -> {
            FORWARDED.incrementAndGet();
            HELD.countDown();
            await(LET_GO);
        });
        subscriptionService = StandInService.start(9083, Executors.newCachedThreadPool(), exchange -> {
            GONE_HELD.countDown();
            await(GONE_LET_GO);
        });
        transactionService = StandInService.start(9082, Executors.newCachedThreadPool(), exchange -> {
            STREAM_HELD.countDown();
            await(STREAM_LET_GO);
        });
        reportingService = StandInService.start(9085, Executors.newCachedThreadPool(),
                exchange -> StandInService.pause(2));
        merchantService = HttpServer.create(new InetSocketAddress("127.0.0.1", 9081), 0);
        merchantService.setExecutor(Executors.newCachedThreadPool());
        merchantService.createContext("/internal/keys/", exchange -> {
            String hash = exchange.getRequestURI().getPath().substring("/internal/keys/".length());
            LOOKUP_HELD.countDown();
            await(LOOKUP_LET_GO);
            answer(exchange, """
                    {"keyId":"%s","accountId":"%s","keyType":"api","keyHash":"%s","role":"admin",
                     "merchantUUID":null,"status":1,"version":1,"updatedAt":"2026-12-04T12:00:00Z"}"""
                    .formatted(UUID.randomUUID(), ACCOUNT, hash));
        });
        merchantService.createContext("/accounts/", exchange -> {
            // A service whose answer is cut off midway: its head and part of its body, then the connection drops
            // (the JDK server closes it when a handler fails).
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().write("{\"data\":[".getBytes(StandardCharsets.UTF_8));
            exchange.getResponseBody().flush();
            throw new IOException("cut off");
        });
        merchantService.start();
    }

    @AfterAll
    static void stop() {
        LET_GO.countDown();
        LOOKUP_LET_GO.countDown();
        GONE_LET_GO.countDown();
        STREAM_LET_GO.countDown();
        webhookService.stop(0);
        transactionService.stop(0);
        merchantService.stop(0);
        subscriptionService.stop(0);
        reportingService.stop(0);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void answer(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    /** Polls for up to 5 s until the gateway has no request left unanswered; returns what is left. */
    private List<String> settled() throws InterruptedException {
        return settled(0);
    }

    /** Polls for up to 5 s until the gateway has at most {@code held} requests unanswered; returns them. */
    private List<String> settled(int held) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (router.unanswered().size() > held && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return router.unanswered();
    }

    @Test
    void aRequestItsServiceHoldsIsNamedUntilItIsAnsweredAndAtAStop() throws Exception {
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> given().header("X-Api-Key", ADMIN)
                .when().get("/accounts/" + ACCOUNT + "/webhooks").then().extract().statusCode());
        assertTrue(HELD.await(10, TimeUnit.SECONDS), "the request reached the stand-in webhook-service");

        List<String> unanswered = router.unanswered();
        assertEquals(1, unanswered.size(), "unanswered: " + unanswered);
        assertTrue(unanswered.get(0).matches(
                "GET /accounts/\\{accountUUID}/webhooks, forwarded to WEBHOOK, for \\d+ ms"), unanswered.get(0));

        List<String> warnings;
        try (CapturedLog captured = CapturedLog.of(GatewayRouter.class)) {
            router.stop(new ShutdownEvent()); // what Quarkus calls after its wait for requests in flight
            warnings = captured.messages(Level.WARNING);
        }
        assertEquals(1, warnings.size(), "warnings: " + warnings);
        assertTrue(warnings.get(0).startsWith("1 requests unanswered at the stop"), warnings.get(0));
        assertTrue(warnings.get(0).contains("GET /accounts/{accountUUID}/webhooks, forwarded to WEBHOOK, for "),
                warnings.get(0));

        LET_GO.countDown();
        assertEquals(200, status.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(), settled(), "nothing is left once the answer went out");
    }

    @Test
    void aRequestWhoseClientHungUpDuringItsAdmissionIsNotForwarded() throws Exception {
        int forwardedBefore = FORWARDED.get();
        try (Socket client = new Socket("127.0.0.1", RestAssured.port)) {
            OutputStream out = client.getOutputStream();
            out.write(StandInService.rawGet("/accounts/" + ACCOUNT + "/webhooks", LATE_KEY));
            out.flush();
            assertTrue(LOOKUP_HELD.await(10, TimeUnit.SECONDS), "the gateway asked merchant-service for the key");
            List<String> unanswered = router.unanswered();
            assertEquals(1, unanswered.size(), "unanswered: " + unanswered);
            assertTrue(unanswered.get(0).startsWith("GET /accounts/{accountUUID}/webhooks, authenticating, for "),
                    unanswered.get(0));
        } // the client hangs up while the gateway still waits for the key's lookup
        assertEquals(List.of(), settled(), "the hang-up ended the request");

        LOOKUP_LET_GO.countDown(); // the admission completes now, for a client that is gone
        Thread.sleep(1000);
        assertEquals(forwardedBefore, FORWARDED.get(), "a request nobody waits for reached the service");
        assertEquals(List.of(), router.unanswered());
    }

    @Test
    void aClientThatHangsUpWhileItsRequestIsForwardedLeavesNothingBehind() throws Exception {
        try (Socket client = new Socket("127.0.0.1", RestAssured.port)) {
            OutputStream out = client.getOutputStream();
            out.write(StandInService.rawGet("/subscriptionplans", ADMIN));
            out.flush();
            assertTrue(GONE_HELD.await(10, TimeUnit.SECONDS), "the request reached the stand-in subscription-service");
            assertEquals(1, router.unanswered().size(), "unanswered: " + router.unanswered());
        } // the client hangs up while the service holds its request
        assertEquals(List.of(), settled(), "the hang-up ended the request");
        GONE_LET_GO.countDown(); // the service answers now, for a client that is gone
        Thread.sleep(500);
        assertEquals(List.of(), router.unanswered(), "nothing is left once the service answered");
    }

    @Test
    void anAnswerTheProxyCouldNotFinishClosesTheConnectionAndEndsTheRequest() throws Exception {
        // The proxy resets the client's answer when the service's answer breaks off. Vert.x' own reset closed the
        // connection without running the answer's end and close handlers: the request stayed in the gateway's record
        // and in Quarkus' count of requests in flight, which runs its done-handler from the same handlers, so every
        // stop waited out its timeout (docs/decisions.md §118).
        String answer;
        try (Socket client = new Socket("127.0.0.1", RestAssured.port)) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write(StandInService.rawGet("/accounts/" + ACCOUNT + "/merchants", ADMIN));
            client.getOutputStream().flush();
            answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        assertTrue(answer.startsWith("HTTP/1.1 200"), "the service's head was passed on: " + answer);
        assertTrue(answer.contains("{\"data\":["), "and the part of its body that came: " + answer);
        assertFalse(answer.endsWith("0\r\n\r\n"), "the client saw the answer end as if complete: " + answer);
        assertEquals(List.of(), settled(), "the closed connection ended the request");
    }

    @Test
    void anHttp2AnswerTheProxyCouldNotFinishResetsItsStreamAndNotTheConnection() throws Exception {
        // Over HTTP/2 (cleartext, upgraded from HTTP/1.1 by the JDK's client) the proxy's reset ends the one stream:
        // the request is done in the gateway's record, and a request on another stream of the same connection, held
        // by its service meanwhile, is still answered (closing the connection, as the HTTP/1 answer does, would have
        // cut it off; docs/decisions.md §118).
        URI base = URI.create("http://127.0.0.1:" + RestAssured.port);
        HttpRequest summary = HttpRequest.newBuilder(base.resolve("/accounts/" + ACCOUNT + "/reporting/summary"))
                .timeout(Duration.ofSeconds(10)).header("X-Api-Key", ADMIN).build();
        HttpRequest held = HttpRequest.newBuilder(base.resolve("/transactions"))
                .timeout(Duration.ofSeconds(10)).header("X-Api-Key", ADMIN)
                .header("X-Account-Id", ACCOUNT.toString()).build();
        HttpRequest cutOff = HttpRequest.newBuilder(base.resolve("/accounts/" + ACCOUNT + "/merchants"))
                .timeout(Duration.ofSeconds(10)).header("X-Api-Key", ADMIN).build();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build()) {
            HttpResponse<String> first = client.send(summary, HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, first.version(), "the gateway speaks HTTP/2 on this connection");
            assertEquals(200, first.statusCode());

            CompletableFuture<HttpResponse<String>> heldAnswer =
                    client.sendAsync(held, HttpResponse.BodyHandlers.ofString());
            assertTrue(STREAM_HELD.await(10, TimeUnit.SECONDS), "the request reached the stand-in transaction-service");

            assertThrows(IOException.class, () -> client.send(cutOff, HttpResponse.BodyHandlers.ofString()),
                    "the client learns that the answer broke off");
            List<String> left = settled(1);
            assertEquals(1, left.size(), "only the held request is left: " + left);
            assertTrue(left.get(0).startsWith("GET /transactions, forwarded to TRANSACTION"), left.get(0));

            STREAM_LET_GO.countDown();
            HttpResponse<String> answer = heldAnswer.get(10, TimeUnit.SECONDS);
            assertEquals(HttpClient.Version.HTTP_2, answer.version());
            assertEquals(200, answer.statusCode(), "the other stream of the connection was answered");
            assertEquals("{\"ok\":true}", answer.body());
        }
        assertEquals(List.of(), settled(), "nothing is left once the held request was answered");
    }

    @Test
    void clientsThatHangUpWithRequestsInFlightAtTheEndOfALoadRunLeaveNothingBehind() throws Exception {
        // What wrk does at the end of a run: 16 connections, each sending its next request as soon as it has the last
        // answer, all closed at once with their last request in flight (the stand-in answers after 2 ms). Ten runs.
        byte[] request = StandInService.rawGet("/accounts/" + ACCOUNT + "/reporting/summary", ADMIN);
        for (int run = 0; run < 10; run++) {
            List<Socket> clients = new ArrayList<>();
            List<CompletableFuture<Void>> loops = new ArrayList<>();
            AtomicBoolean ending = new AtomicBoolean();
            ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
            for (int c = 0; c < 16; c++) {
                Socket client = new Socket("127.0.0.1", RestAssured.port);
                clients.add(client);
                loops.add(CompletableFuture.runAsync(() -> {
                    try {
                        InputStream in = client.getInputStream();
                        while (!ending.get()) {
                            client.getOutputStream().write(request);
                            readAnswer(in);
                        }
                    } catch (IOException closed) {
                        // the run ended under it
                    }
                }, threads));
            }
            Thread.sleep(300);
            ending.set(true);
            for (Socket client : clients) {
                client.close();
            }
            CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            threads.close();
        }
        assertEquals(List.of(), settled(), "every request whose client hung up is done");
    }

    /** Reads one HTTP answer with a Content-Length body (the stand-in's) from {@code in}. */
    private static void readAnswer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed");
            }
            head.append((char) b);
        }
        String length = head.toString().lines().filter(l -> l.toLowerCase().startsWith("content-length:"))
                .findFirst().orElse("content-length: 0").substring("content-length:".length()).strip();
        in.readNBytes(Integer.parseInt(length));
    }
}
