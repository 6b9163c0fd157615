package dev.cryptopay.systemtests.subscriptions;

import static io.restassured.RestAssured.given;

import dev.cryptopay.systemtests.Suite;
import io.restassured.http.ContentType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * Moves subscription-service's clock forward through its sandbox-only operator endpoint, so a test bills a month or
 * a dunning schedule of days later without sleeping. The endpoint is not routed by the gateway (it is no part of the
 * public API): the test calls the service directly with an operator identity token signed, as the gateway would
 * sign it, with the committed local development key.
 */
final class SubscriptionClock {

    private SubscriptionClock() {
    }

    /** Advances the clock and runs one billing pass; answers the service's time afterwards. */
    static Instant advance(Duration by) {
        return advance(Suite.port("subscription"), by);
    }

    /** The same on the instance listening on {@code port} (a replica keeps its own clock). */
    static Instant advance(int port, Duration by) {
        String now = given().baseUri("http://127.0.0.1:" + port)
                .auth().oauth2(operatorToken()).contentType(ContentType.JSON)
                .body("{\"advanceSeconds\":" + by.toSeconds() + "}")
                .when().put("/operator/subscriptions/clock")
                .then().statusCode(200).extract().path("now");
        return Instant.parse(now);
    }

    static Instant now() {
        return advance(Duration.ZERO);
    }

    /** How far the clock of the instance on {@code port} is ahead of the system clock. */
    static Duration offset(int port) {
        Number seconds = given().baseUri("http://127.0.0.1:" + port).auth().oauth2(operatorToken())
                .when().get("/operator/subscriptions/clock").then().statusCode(200).extract().path("offsetSeconds");
        return Duration.ofSeconds(seconds.longValue());
    }

    /** An RS256 identity token with the operator role (the claims of service-support's IdentityClaims). */
    private static String operatorToken() {
        try {
            String pem = Files.readString(Suite.get().root().resolve("deploy/local/keys/local-dev-internal-private.pem"));
            byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
            PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
            long iat = Instant.now().getEpochSecond();
            String header = b64("{\"alg\":\"RS256\",\"typ\":\"JWT\"}");
            String claims = b64("{\"iss\":\"cryptopay-gateway\",\"aud\":\"cryptopay-services\",\"sub\":\"it-operator\","
                    + "\"upn\":\"it-operator\",\"groups\":[\"operator\"],\"key_type\":\"operator\",\"iat\":" + iat
                    + ",\"exp\":" + (iat + 60) + "}");
            Signature signature = Signature.getInstance("SHA256withRSA");
            signature.initSign(key);
            signature.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
            return header + "." + claims + "."
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(signature.sign());
        } catch (Exception e) {
            throw new IllegalStateException("cannot sign an operator token", e);
        }
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
