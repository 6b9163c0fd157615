package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.gateway.limits.Buckets;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Rate limits, with small buckets so they are reached quickly (body limits: GatewayBodyLimitTest). */
@QuarkusTest
@TestProfile(GatewayRateLimitTest.SmallBuckets.class)
class GatewayRateLimitTest {

    public static class SmallBuckets implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gateway.rate-limit.per-key.capacity", "5", "gateway.rate-limit.per-key.refill-per-second", "1",
                    "gateway.rate-limit.per-address.capacity", "5", "gateway.rate-limit.per-address.refill-per-second",
                    "1");
        }
    }

    static final UUID ACCOUNT = UUID.randomUUID();

    @BeforeAll
    static void seed() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        SeededKeys.admin(ACCOUNT, "ak_limit_a_" + ACCOUNT, "ak_limit_b_" + ACCOUNT);
    }

    @Test
    void aKeyThatSpendsItsBucketGets429WithRetryAfterAndOtherKeysDoNot() {
        String key = "ak_limit_a_" + ACCOUNT;
        Buckets.assertBurstLimited(12, 5, 503,
                () -> given().header("X-Api-Key", key).get("/accounts/" + ACCOUNT + "/keys"));
        Buckets.untilLimited(6, 503, () -> given().header("X-Api-Key", key).get("/accounts/" + ACCOUNT + "/keys"))
                .then().contentType("application/problem+json")
                .header("Retry-After", notNullValue()).body("code", equalTo("rate_limited"));
        given().header("X-Api-Key", "ak_limit_b_" + ACCOUNT).get("/accounts/" + ACCOUNT + "/keys")
                .then().statusCode(503);
    }

    @Test
    void guessingKeysFromOneAddressIsThrottled() {
        // Only failed authentications and public calls draw on the address bucket, and no other test here does.
        boolean throttled = false;
        for (int i = 0; i < 15 && !throttled; i++) {
            int status = given().header("X-Api-Key", "ak_guess_" + i).get("/accounts/" + ACCOUNT + "/keys")
                    .statusCode();
            throttled = status == 429;
            if (!throttled) {
                assertEquals(401, status);
            }
        }
        assertTrue(throttled, "unknown keys from one address run into the address bucket");
    }
}
