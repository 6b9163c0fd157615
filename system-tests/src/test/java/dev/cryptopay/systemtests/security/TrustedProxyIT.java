package dev.cryptopay.systemtests.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security finding "client address from a configured trusted proxy header only" (docs/security.md, docs/decisions.md
 * §31): the suite's gateway names no trusted proxy, so {@code X-Forwarded-For} is the client's own claim and must not
 * choose its rate-limit bucket. One client sending a new address with every request still drains its own bucket for
 * the publishable key (RateLimitsIT shows the header honoured where it is configured).
 */
class TrustedProxyIT {

    @BeforeAll
    static void startSuite() {
        Suite.get();
        RestAssured.baseURI = Suite.gatewayUrl();
    }

    @Test
    void anUntrustedForwardedForHeaderDoesNotChooseTheBucket() {
        SandboxAccount account = SandboxAccount.create("Spoofed Forwarding Ltd");
        String publishable = account.newKey("publishable", null, null);
        // Per publishable key and client address: 60 at once, 20 a second; the key's own bucket holds 200, the
        // account's 400. 190 requests at once, each claiming another address: only the address bucket can refuse,
        // and of a burst that took t seconds at most 60 + 20 per second begun may pass.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < 190; i++) {
            answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create(Suite.gatewayUrl() + "/merchant/config"))
                    .header("X-Publishable-Key", publishable)
                    .header("X-Forwarded-For", "198.51.100." + (i % 250)).build(),
                    HttpResponse.BodyHandlers.discarding()));
        }
        List<Integer> statuses = answers.stream().map(CompletableFuture::join).map(HttpResponse::statusCode).toList();
        long refilled = 20 * ((System.nanoTime() - start) / 1_000_000_000L + 1);
        long limited = statuses.stream().filter(status -> status == 429).count();
        long through = statuses.stream().filter(status -> status == 200).count();
        assertEquals(190, limited + through, "every answer is 200 or 429: " + statuses);
        assertTrue(limited >= 1 && through <= 60 + refilled, "190 requests of one client claiming 190 addresses: "
                + through + " let through, " + limited + " refused, " + refilled + " tokens refilled meanwhile");
    }
}
