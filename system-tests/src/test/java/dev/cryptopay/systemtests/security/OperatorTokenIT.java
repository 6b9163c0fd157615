package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security finding "the operator token has no audience and no maximum age" (docs/security.md, docs/decisions.md §30):
 * any token the operator key signed was accepted, whatever API it was minted for and however long it lived. The gateway
 * now wants {@code aud = cryptopay-operator-api}, {@code iat} and {@code exp}, and at most one hour between them.
 */
class OperatorTokenIT {

    @BeforeAll
    static void startSuite() {
        Suite.throughGateway();
    }

    @Test
    void theLocalScriptsTokenIsAccepted() {
        given().auth().oauth2(Suite.get().operatorToken()).get("/operator/rates").then().statusCode(200);
    }

    @Test
    void aCorrectlySignedTokenWithoutTheAudienceIsRefused() throws Exception {
        long now = Instant.now().getEpochSecond();
        given().auth().oauth2(sign(claims(null, now, now + 300))).get("/operator/rates")
                .then().statusCode(401).body("code", equalTo("unauthorized"));
        given().auth().oauth2(sign(claims("cryptopay-services", now, now + 300))).get("/operator/rates")
                .then().statusCode(401);
    }

    @Test
    void aTokenLivingLongerThanAnHourIsRefused() throws Exception {
        long now = Instant.now().getEpochSecond();
        given().auth().oauth2(sign(claims("cryptopay-operator-api", now, now + 7200))).get("/operator/rates")
                .then().statusCode(401);
        // still valid by its own exp, but issued two hours ago
        given().auth().oauth2(sign(claims("cryptopay-operator-api", now - 7200, now + 600))).get("/operator/rates")
                .then().statusCode(401);
        // the same shape inside the limits is fine, so the refusals above are about audience and age only
        given().auth().oauth2(sign(claims("cryptopay-operator-api", now, now + 3000))).get("/operator/rates")
                .then().statusCode(200);
    }

    private static String claims(String audience, long issuedAt, long expiresAt) {
        return "{\"iss\":\"https://operator.payments.local\"," + (audience == null ? "" : "\"aud\":\"" + audience + "\",")
                + "\"sub\":\"it-operator\",\"upn\":\"it-operator\",\"groups\":[\"operator\"],\"iat\":" + issuedAt
                + ",\"exp\":" + expiresAt + ",\"jti\":\"" + UUID.randomUUID() + "\"}";
    }

    /** RS256 with the committed local operator key, as deploy/local/operator-token signs. */
    private static String sign(String payload) throws Exception {
        String pem = Files.readString(Suite.get().root().resolve("deploy/local/keys/local-dev-operator-private.pem"));
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String input = url.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"local-dev-operator\"}"
                .getBytes(StandardCharsets.UTF_8)) + "." + url.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        Signature signature = Signature.getInstance("SHA256withRSA");
        signature.initSign(key);
        signature.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + url.encodeToString(signature.sign());
    }
}
