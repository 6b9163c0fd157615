package dev.cryptopay.transaction.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.security.VerifiedTokens;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.smallrye.jwt.auth.principal.JWTParser;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The service verifies a reused identity token once (docs/decisions.md §79), and still refuses a forged one. */
@QuarkusTest
class IdentityTokenTest {

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void aReusedTokenIsVerifiedOnceAndAForgedOneIsRefused() {
        assertEquals(VerifiedTokens.class, Arc.container().instance(JWTParser.class).getBean().getBeanClass(),
                "the JWT validator uses the verified-token memory");
        VerifiedTokens verified = Arc.container().instance(VerifiedTokens.class).get();
        String token = TestTokens.apiKey(UUID.randomUUID(), IdentityClaims.ROLE_READ_ONLY);
        long before = verified.verifications();
        for (int i = 0; i < 3; i++) {
            given().auth().oauth2(token).when().get("/transactions?limit=10&page=1").then().statusCode(200);
        }
        assertEquals(before + 1, verified.verifications(), "three requests, one verification");

        String forged = token.substring(0, token.lastIndexOf('.') + 1) + "AAAA" + token.substring(
                token.lastIndexOf('.') + 5);
        given().auth().oauth2(forged).when().get("/transactions?limit=10&page=1").then().statusCode(401);
    }
}
