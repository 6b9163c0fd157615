package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * deploy/local/lib.sh's {@code identity_token}, which the benchmarks send to call a service directly: the token is an
 * RS256 JWT that the local development public key verifies, with the claims gateway-service's TokenMinter writes
 * (issuer, audience, the role as its one group, key_type, acct, and mid and mid_ref only when given), valid for the
 * lifetime asked (900 s unless given, long enough for a benchmark's phase). Missing options fail with a message
 * instead of an unsigned or partial token.
 */
class IdentityTokenTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aPublishableTokenForOneMerchantCarriesTheGatewaysClaimsAndVerifies() throws Exception {
        String token = mint("--role publishable --key-type publishable --account acc-1 --merchant mer-1 "
                + "--merchant-ref ref-1 --lifetime 120");
        JsonNode header = part(token, 0);
        JsonNode claims = part(token, 1);
        assertEquals("RS256", header.get("alg").asText());
        assertEquals("cryptopay-gateway", claims.get("iss").asText());
        assertEquals("cryptopay-services", claims.get("aud").asText());
        assertEquals(1, claims.get("groups").size());
        assertEquals("publishable", claims.get("groups").get(0).asText());
        assertEquals("publishable", claims.get("key_type").asText());
        assertEquals("acc-1", claims.get("acct").asText());
        assertEquals("mer-1", claims.get("mid").asText());
        assertEquals("ref-1", claims.get("mid_ref").asText());
        assertEquals(120, claims.get("exp").asLong() - claims.get("iat").asLong());
        long now = System.currentTimeMillis() / 1000;
        assertTrue(Math.abs(claims.get("iat").asLong() - now) < 60, "iat is now: " + claims);
        assertTrue(verifies(token), "the local development public key verifies " + token);
    }

    @Test
    void anAccountTokenLeavesOutTheMerchantAndLivesFifteenMinutesUnlessToldOtherwise() throws Exception {
        JsonNode claims = part(mint("--role admin --key-type api --account acc-2"), 1);
        assertEquals("admin", claims.get("groups").get(0).asText());
        assertEquals("api", claims.get("key_type").asText());
        assertFalse(claims.has("mid"), claims.toString());
        assertFalse(claims.has("mid_ref"), claims.toString());
        assertEquals(900, claims.get("exp").asLong() - claims.get("iat").asLong());
    }

    @Test
    void aChangedClaimNoLongerVerifies() throws Exception {
        String token = mint("--role publishable --key-type publishable --account acc-3");
        String[] parts = token.split("\\.");
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(
                new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("[\"publishable\"]", "[\"admin\"]").getBytes(StandardCharsets.UTF_8));
        assertNotEquals(parts[1], forged);
        assertFalse(verifies(parts[0] + "." + forged + "." + parts[2]));
    }

    @Test
    void missingOptionsFailWithAMessage() {
        Repo.Result noKeyType = shell("identity_token --role admin --account acc-4");
        assertEquals(1, noKeyType.exitCode());
        assertTrue(noKeyType.stderr().contains("--role, --key-type and --account are required"), noKeyType.stderr());
        assertEquals("", noKeyType.stdout());
        Repo.Result noValue = shell("identity_token --role admin --key-type api --account acc-4 --lifetime");
        assertEquals(1, noValue.exitCode());
        assertTrue(noValue.stderr().contains("--lifetime needs a value"), noValue.stderr());
        Repo.Result unknown = shell("identity_token --role admin --key-type api --account acc-4 --scope x");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.stderr().contains("unknown option --scope"), unknown.stderr());
    }

    private static String mint(String options) {
        Repo.Result result = shell("identity_token " + options);
        assertEquals(0, result.exitCode(), result.stderr());
        String token = result.stdout().strip();
        assertEquals(3, token.split("\\.").length, token);
        return token;
    }

    private static Repo.Result shell(String command) {
        return Repo.run(Repo.command("bash", "-c", "set -euo pipefail; . deploy/local/lib.sh; " + command));
    }

    private static JsonNode part(String token, int index) throws Exception {
        return JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[index]));
    }

    private static boolean verifies(String token) throws Exception {
        String pem = Files.readString(Repo.root().resolve("deploy/local/keys/local-dev-internal-public.pem"))
                .replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PublicKey key = KeyFactory.getInstance("RSA")
                .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(pem)));
        int lastDot = token.lastIndexOf('.');
        Signature rs256 = Signature.getInstance("SHA256withRSA");
        rs256.initVerify(key);
        rs256.update(token.substring(0, lastDot).getBytes(StandardCharsets.US_ASCII));
        return rs256.verify(Base64.getUrlDecoder().decode(token.substring(lastDot + 1)));
    }
}
