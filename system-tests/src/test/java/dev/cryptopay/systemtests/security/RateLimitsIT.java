package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security finding "abuse through public keys" (docs/security.md, docs/decisions.md §31): rate limits were per key
 * only, so an account multiplied its rate by creating keys, and anyone holding a merchant's publishable key (public on
 * its checkout) could drain that key's bucket for every customer. Now an account's keys share one bucket, and each
 * client address has its own bucket per publishable key, the address taken from the trusted proxy's header. A second
 * gateway with small buckets, its own consumer groups and {@code X-Forwarded-For} as the trusted header runs beside
 * the suite's for this test.
 */
class RateLimitsIT {

    private static final String REPLICA = "gateway-rate-limits";
    private static final int REPLICA_PORT = 18096;
    private static Suite suite;

    @BeforeAll
    static void startReplica() {
        suite = Suite.throughGateway();
        suite.startReplicas("gateway", Map.of(REPLICA, REPLICA_PORT), Map.of(
                "CRYPTOPAY_LIMITS_REQUEST_BURST", "8",
                "CRYPTOPAY_LIMITS_REQUESTS_PER_SECOND", "1",
                "RATE_LIMIT_PUBLISHABLE_ADDRESS_CAPACITY", "3",
                "RATE_LIMIT_PUBLISHABLE_ADDRESS_PER_SECOND", "1",
                "CLIENT_ADDRESS_HEADER", "X-Forwarded-For",
                "CLIENT_ADDRESS_TRUSTED_PROXIES", "127.0.0.1",
                "MP_MESSAGING_INCOMING_VIEWS_IN_GROUP_ID", "gateway-views-rate-limits-it"));
    }

    @AfterAll
    static void stopReplica() {
        suite.stopService(REPLICA);
    }

    @Test
    void moreKeysDoNotMeanMoreRate() {
        SandboxAccount account = SandboxAccount.create("Many Keys Ltd");
        String[] keys = {account.apiKey(), account.newKey("api", "read_only", null),
                account.newKey("api", "read_only", null)};
        // each key makes 10 requests, well inside its own bucket (200): only the account's bucket (8, 1 a second)
        // can refuse
        Buckets.assertBurstLimited(30, 8, 1, 200, i -> given().baseUri(replica()).header("X-Api-Key", keys[i % 3])
                .get("/accounts/" + account.accountId() + "/keys"));
    }

    @Test
    void oneClientCannotDrainAPublishableKeyForOthers() {
        SandboxAccount account = SandboxAccount.create("Public Checkout Ltd");
        String publishable = account.newKey("publishable", null, null);
        // one client with one publishable key: its address's bucket holds 3 and refills 1 a second
        Buckets.assertBurstLimited(12, 3, 1, 200, i -> checkoutConfig(publishable, "203.0.113.10"));
        // The proxy's own (right-most) entry counts, not what the client put in front of it: right after the burst
        // 203.0.113.10's bucket holds at most what refilled since, where a fresh bucket for 203.0.113.12 would let
        // three through.
        Buckets.untilLimited(3, 200, i -> checkoutConfig(publishable, "203.0.113.12, 203.0.113.10"));
        // another customer of the same checkout, behind the same proxy, is not affected
        assertNotEquals(429, checkoutConfig(publishable, "203.0.113.11").statusCode());
        // nor is the client the proxy names, whatever the left-most entry says
        assertNotEquals(429, checkoutConfig(publishable, "203.0.113.10, 203.0.113.12").statusCode());
    }

    private static Response checkoutConfig(String publishable, String forwardedFor) {
        return given().baseUri(replica()).header("X-Publishable-Key", publishable)
                .header("X-Forwarded-For", forwardedFor).get("/merchant/config");
    }

    private static String replica() {
        return "http://127.0.0.1:" + REPLICA_PORT;
    }
}
