package dev.cryptopay.gateway.limits;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The client address of the rate limits (docs/decisions.md §31): with a trusted proxy header configured, its
 * right-most value (the proxy's own entry) names the client, but only for requests from a trusted proxy address.
 * GET /openapi draws on the per-address bucket (2 here).
 */
@QuarkusTest
@TestProfile(TrustedProxyHeaderTest.ForwardedFor.class)
class TrustedProxyHeaderTest {

    public static class ForwardedFor implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gateway.rate-limit.per-address.capacity", "2",
                    "gateway.rate-limit.per-address.refill-per-second", "1",
                    "gateway.client-address.header", "X-Forwarded-For",
                    "gateway.client-address.trusted-proxies", "127.0.0.1,10.0.0.1");
        }
    }

    @Test
    void eachForwardedClientHasItsOwnBucketAndOnlyTheProxysEntryCounts() {
        // The document is built once, so the calls below are quick next to the bucket's one-second refill.
        assertEquals(200, fetch("192.0.2.250").statusCode());
        assertEquals(200, fetch("192.0.2.1").statusCode());
        assertEquals(200, fetch("192.0.2.1").statusCode());
        Buckets.untilLimited(2, 200, () -> fetch("192.0.2.1"));
        // another client behind the same proxy
        assertEquals(200, fetch("192.0.2.2").statusCode());
        // A client cannot leave its bucket by putting another address in front of the proxy's entry: a fresh
        // bucket for 198.51.100.9 would answer 200 twice; 192.0.2.1's holds at most the one token it refilled.
        Buckets.untilLimited(2, 200, () -> fetch("198.51.100.9, 192.0.2.1"));
    }

    private static Response fetch(String forwardedFor) {
        return given().header("X-Forwarded-For", forwardedFor).when().get("/openapi.json");
    }
}
