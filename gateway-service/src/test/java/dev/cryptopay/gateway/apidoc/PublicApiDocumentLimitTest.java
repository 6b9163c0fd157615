package dev.cryptopay.gateway.apidoc;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.cryptopay.gateway.limits.Buckets;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GET /openapi is public like the lookups, so it draws on the client address's bucket (small here). */
@QuarkusTest
@TestProfile(PublicApiDocumentLimitTest.SmallAddressBucket.class)
class PublicApiDocumentLimitTest {

    public static class SmallAddressBucket implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gateway.rate-limit.per-address.capacity", "3",
                    "gateway.rate-limit.per-address.refill-per-second", "1");
        }
    }

    @Test
    void manyReadsFromOneAddressAre429WithRetryAfter() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        Buckets.assertBurstLimited(10, 3, 200, () -> given().when().get("/openapi.json"));
        // GET /openapi draws on the same address bucket.
        Response limitedYaml = Buckets.untilLimited(4, 200, () -> given().when().get("/openapi"));
        limitedYaml.then().contentType("application/problem+json")
                .header("Retry-After", notNullValue()).body("code", equalTo("rate_limited"));
    }
}
