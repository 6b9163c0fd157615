package dev.cryptopay.gateway.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway forwards a request through the connection pool of the event loop that read it (docs/decisions.md §92),
 * so a connection to a service only ever carries requests read by one event loop, and a request and its answer stay
 * on that loop's thread. With one pool for all event loops, any idle connection went to any request and each of its
 * reads was handed over to the requesting loop's thread. Here requests arrive on 16 client connections at once (the
 * gateway spreads connections over its event loops); a route installed before the gateway's records which event loop
 * read each request, and the JDK's HTTP server, standing in for transaction-service on its test port, records the
 * gateway's port of the connection each request arrived on.
 */
@QuarkusTest
class GatewayConnectionAffinityTest {

    private static final UUID ACCOUNT = UUID.randomUUID();
    private static final String ADMIN = "ak_affinity_" + ACCOUNT;
    private static final String PREFIX = "affinity-";
    private static final int CONNECTIONS = 16;
    private static final int ROUNDS = 5;
    /** Request id to the event loop (thread) of the gateway that read it. */
    static final Map<String, String> READ_ON = new ConcurrentHashMap<>();
    /** Request id to the gateway's port of the connection it reached the service on. */
    private static final Map<String, Integer> ARRIVED_ON = new ConcurrentHashMap<>();
    private static HttpServer transactionService;

    @TestHTTPResource("/transaction/")
    URI gateway;

    /** Records the thread that reads each of this test's requests, before the gateway's handler runs. */
    @ApplicationScoped
    static class ReadingThreads {
        void install(@Observes Router router) {
            router.route().order(-20).handler(ctx -> {
                String id = ctx.request().getHeader("X-Request-Id");
                if (id != null && id.startsWith(PREFIX)) {
                    READ_ON.put(id, Thread.currentThread().getName());
                }
                ctx.next();
            });
        }
    }

    @BeforeAll
    static void start() throws Exception {
        SeededKeys.admin(ACCOUNT, ADMIN);
        QuarkusTransaction.requiringNew().run(() -> SeededKeys.merchant(UUID.randomUUID(), ACCOUNT, "affinity-till"));
        transactionService = StandInService.start(9082, Executors.newFixedThreadPool(CONNECTIONS), exchange -> {
            ARRIVED_ON.put(exchange.getRequestHeaders().getFirst("X-Request-Id"), exchange.getRemoteAddress().getPort());
            StandInService.pause(2); // the requests overlap, so the pools open several connections
        });
    }

    @AfterAll
    static void stop() {
        transactionService.stop(0);
    }

    @Test
    void aConnectionToAServiceCarriesTheRequestsOfOneEventLoop() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(CONNECTIONS);
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            for (int round = 0; round < ROUNDS; round++) {
                List<Future<HttpResponse<String>>> answers = new ArrayList<>();
                for (int i = 0; i < CONNECTIONS; i++) {
                    String id = PREFIX + round + "-" + i;
                    answers.add(threads.submit(() -> get(client, id)));
                }
                for (Future<HttpResponse<String>> answer : answers) {
                    assertEquals(200, answer.get(30, TimeUnit.SECONDS).statusCode());
                }
            }
        } finally {
            threads.shutdownNow();
        }

        Map<Integer, Set<String>> loopsPerConnection = new TreeMap<>();
        ARRIVED_ON.forEach((id, port) -> loopsPerConnection.computeIfAbsent(port, p -> new TreeSet<>())
                .add(READ_ON.get(id)));
        Set<String> loops = new TreeSet<>(READ_ON.values());
        assertEquals(ROUNDS * CONNECTIONS, ARRIVED_ON.size(), "every request reached the service");
        assertTrue(loops.size() > 1, "the requests were read on several event loops: " + loops);
        loopsPerConnection.forEach((port, read) -> assertEquals(1, read.size(),
                "the service connection from the gateway's port " + port + " carried requests read on " + read));
    }

    private HttpResponse<String> get(HttpClient client, String requestId) throws Exception {
        return client.send(HttpRequest.newBuilder(gateway.resolve("t-" + requestId))
                .header("X-Api-Key", ADMIN).header("X-MID", "affinity-till").header("X-Request-Id", requestId)
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
