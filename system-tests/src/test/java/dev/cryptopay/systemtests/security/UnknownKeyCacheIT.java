package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security finding "unknown keys are not negatively cached" (docs/security.md, docs/decisions.md §32): every request
 * with a made-up key was a synchronous call from the gateway to merchant-service. An unknown key is now remembered as
 * unknown for ten seconds; merchant-service's own request metrics count the lookups.
 */
class UnknownKeyCacheIT {

    private static final String LOOKUP_LABEL = "uri=\"/internal/keys/{keyHash}\"";

    @BeforeAll
    static void startSuite() {
        Suite.throughGateway();
    }

    @Test
    void aFloodOfOneUnknownKeyCostsOneLookup() {
        String apiKey = "ak_" + UUID.randomUUID().toString().replace("-", "");
        String publishable = "pk_" + UUID.randomUUID().toString().replace("-", "");
        double before = lookups();
        long start = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            given().header("X-Api-Key", apiKey).get("/accounts/" + UUID.randomUUID() + "/keys").then().statusCode(401);
            given().header("X-Publishable-Key", publishable).get("/merchant/config").then().statusCode(401);
        }
        // an unknown key is remembered for 10 s (gateway.unknown-key-cache-ttl): a loop slower than that looks each
        // key up once more per 10 s begun
        long periods = (System.nanoTime() - start) / 10_000_000_000L + 1;
        double made = lookups() - before;
        // one lookup per key (the first request), then none: the counter does see the gateway's lookups
        assertTrue(made >= 1 && made <= 2 * periods,
                "20 requests with two unknown keys made " + made + " lookups at merchant-service");
    }

    @Test
    void aNewKeyWorksAtOnce() {
        SandboxAccount account = SandboxAccount.create("Unknown Key Cache Ltd");
        String key = account.newKey("api", "read_only", null);
        given().header("X-Api-Key", key).get("/accounts/" + account.accountId() + "/keys").then().statusCode(200);
    }

    /** Requests merchant-service answered on its key-lookup route, from its management port's metrics. */
    private static double lookups() {
        return Suite.metricSum("merchant", "http_server_requests_seconds_count", LOOKUP_LABEL);
    }
}
