package dev.cryptopay.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.support.security.KeyHash;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The first burst of requests with a key or merchant the gateway has not seen yet asks merchant-service once
 * (docs/decisions.md §89). Before, each request of the burst made its own lookup and its own write to the view: a
 * system test's 190 requests with a new publishable key waited for the lookup client's connections and got 401 for
 * a valid key, or for the view's database connections and got 503. A stand-in merchant-service on the test port
 * counts the lookups and answers each after 300 ms, so the burst's requests overlap.
 */
@QuarkusTest
class DirectoryLookupBurstTest {

    private static final int BURST = 40;
    private static final UUID ACCOUNT = UUID.randomUUID();
    private static final UUID MERCHANT = UUID.randomUUID();
    private static final String FAILING_KEY = "pk_failing_" + UUID.randomUUID();
    private static final AtomicInteger KEY_LOOKUPS = new AtomicInteger();
    private static final AtomicInteger MERCHANT_LOOKUPS = new AtomicInteger();
    private static HttpServer merchantService;

    @Inject
    Directory directory;

    @BeforeAll
    static void start() throws Exception {
        merchantService = HttpServer.create(new InetSocketAddress("127.0.0.1", 9081), 0);
        merchantService.setExecutor(Executors.newCachedThreadPool());
        merchantService.createContext("/internal/keys/", exchange -> {
            KEY_LOOKUPS.incrementAndGet();
            String hash = exchange.getRequestURI().getPath().substring("/internal/keys/".length());
            pause();
            if (hash.equals(KeyHash.of(FAILING_KEY))) {
                answer(exchange, 500, "{}");
                return;
            }
            answer(exchange, 200, """
                    {"keyId":"%s","accountId":"%s","keyType":"publishable","keyHash":"%s","role":"publishable",
                     "merchantUUID":null,"status":1,"version":1,"updatedAt":"2026-11-28T12:00:00Z"}"""
                    .formatted(UUID.randomUUID(), ACCOUNT, hash));
        });
        merchantService.createContext("/internal/accounts/", exchange -> {
            MERCHANT_LOOKUPS.incrementAndGet();
            pause();
            answer(exchange, 200, """
                    {"merchantId":"%s","accountId":"%s","externalMID":"burst-shop","status":1,"version":1}"""
                    .formatted(MERCHANT, ACCOUNT));
        });
        merchantService.start();
    }

    @AfterAll
    static void stop() {
        merchantService.stop(0);
    }

    private static void pause() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static <T> List<T> all(Callable<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(BURST);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                futures.add(pool.submit(call));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBurstWithANewKeyAsksMerchantServiceOnce() throws Exception {
        String hash = KeyHash.of("pk_burst_" + UUID.randomUUID());
        int before = KEY_LOOKUPS.get();
        List<Optional<Directory.KnownKey>> found = all(() -> directory.key(hash));
        assertEquals(BURST, found.stream().filter(Optional::isPresent).count(), "every request found the key");
        assertTrue(found.stream().allMatch(k -> k.orElseThrow().accountId().equals(ACCOUNT)));
        assertEquals(1, KEY_LOOKUPS.get() - before, "lookups at merchant-service for one burst");
    }

    @Test
    void aBurstWithANewMerchantAsksMerchantServiceOnce() throws Exception {
        int before = MERCHANT_LOOKUPS.get();
        List<Optional<UUID>> found = all(() -> directory.merchant(ACCOUNT, "burst-shop"));
        assertTrue(found.stream().allMatch(m -> m.equals(Optional.of(MERCHANT))), "every request found it: " + found);
        assertEquals(1, MERCHANT_LOOKUPS.get() - before, "lookups at merchant-service for one burst");
    }

    @Test
    void everyRequestSharingAFailedLookupKnowsItFailed() throws Exception {
        String hash = KeyHash.of(FAILING_KEY);
        int before = KEY_LOOKUPS.get();
        // what Authenticator asks: a key not found is remembered as unknown only if no lookup failed since it asked
        List<Boolean> failedForCaller = all(() -> {
            long asked = System.nanoTime();
            boolean found = directory.key(hash).isPresent();
            return !found && directory.keyLookupFailedSince(asked);
        });
        assertTrue(failedForCaller.stream().allMatch(Boolean::booleanValue),
                "a caller saw the key as unknown although the lookup it shared failed: " + failedForCaller);
        assertTrue(KEY_LOOKUPS.get() - before <= 2, "lookups for one burst: " + (KEY_LOOKUPS.get() - before));
    }
}
