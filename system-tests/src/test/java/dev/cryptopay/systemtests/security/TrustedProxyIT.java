package dev.cryptopay.systemtests.security;

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
        // per publishable key and client address: 60 at once, 20 a second; the key's own bucket holds 200, the
        // account's 400. 150 requests at once, each claiming another address: only the address bucket can refuse.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create(Suite.gatewayUrl() + "/merchant/config"))
                    .header("X-Publishable-Key", publishable)
                    .header("X-Forwarded-For", "198.51.100." + (i % 250)).build(),
                    HttpResponse.BodyHandlers.discarding()));
        }
        long limited = answers.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 429).count();
        assertTrue(limited >= 30, "150 requests of one client claiming 150 addresses: " + limited + " refused");
    }
}
