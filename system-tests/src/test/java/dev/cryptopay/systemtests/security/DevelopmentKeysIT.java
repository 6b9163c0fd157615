package dev.cryptopay.systemtests.security;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.Suite;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security finding "development keys accepted outside development" (docs/security.md, docs/decisions.md §29): the key
 * pairs committed in deploy/local/keys are public, yet a service given one of them in production trusted tokens signed
 * with it. A packaged service whose environment is production now refuses to start with any of them, recognised by
 * fingerprint: a service's verifying key, the gateway's signing key and the gateway's operator key, and the LOCAL
 * DEVELOPMENT keys that seal KYC documents (transaction-service) and webhook signing secrets (webhook-service). Each case starts
 * one packaged service on its own (as EnvironmentIT does) with only that key committed-development, the others fresh.
 */
class DevelopmentKeysIT {

    private static final int PORT = 18197;
    private static Path freshPublic;
    private static Path freshPrivate;

    @BeforeAll
    static void freshKeys() throws Exception {
        Suite.get();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        Path dir = Suite.get().root().resolve("system-tests/target/development-keys-it");
        Files.createDirectories(dir);
        freshPublic = dir.resolve("fresh-public.pem");
        freshPrivate = dir.resolve("fresh-private.pem");
        Files.writeString(freshPublic, pem("PUBLIC KEY", pair.getPublic().getEncoded()));
        Files.writeString(freshPrivate, pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
    }

    @Test
    void aServiceVerifyingWithTheDevelopmentKeyRefusesToStartInProduction() throws Exception {
        String output = refusedStart("merchant", "verify", Map.of(
                "MP_JWT_VERIFY_PUBLICKEY_LOCATION", dev("local-dev-internal-public.pem")));
        assertTrue(output.contains("mp.jwt.verify.publickey.location"), "the failure names the setting:\n" + output);
    }

    @Test
    void theGatewaySigningWithTheDevelopmentKeyRefusesToStartInProduction() throws Exception {
        String output = refusedStart("gateway", "sign", Map.of(
                "MP_JWT_VERIFY_PUBLICKEY_LOCATION", freshPublic.toString(),
                "INTERNAL_JWT_PRIVATE_KEY_LOCATION", dev("local-dev-internal-private.pem"),
                "OPERATOR_JWT_PUBLIC_KEY_LOCATION", freshPublic.toString()));
        assertTrue(output.contains("smallrye.jwt.sign.key.location"), "the failure names the setting:\n" + output);
    }

    @Test
    void theGatewayTrustingTheDevelopmentOperatorKeyRefusesToStartInProduction() throws Exception {
        String output = refusedStart("gateway", "operator", Map.of(
                "MP_JWT_VERIFY_PUBLICKEY_LOCATION", freshPublic.toString(),
                "INTERNAL_JWT_PRIVATE_KEY_LOCATION", freshPrivate.toString(),
                "OPERATOR_JWT_PUBLIC_KEY_LOCATION", dev("local-dev-operator-public.pem")));
        assertTrue(output.contains("gateway.operator.public-key-location"), "the failure names the setting:\n" + output);
    }

    @Test
    void transactionServiceWithTheDevelopmentKycDocumentKeyRefusesToStartInProduction() throws Exception {
        String output = refusedStart("transaction", "kyc", Map.of(
                "MP_JWT_VERIFY_PUBLICKEY_LOCATION", freshPublic.toString(),
                "KYC_DOCUMENT_ENCRYPTION_KEY", Suite.LOCAL_DEV_KYC_DOCUMENT_KEY));
        assertTrue(output.contains("KYC_DOCUMENT_ENCRYPTION_KEY"), "the failure names the setting:\n" + output);
    }

    @Test
    void webhookServiceWithTheDevelopmentSecretKeyRefusesToStartInProduction() throws Exception {
        String output = refusedStart("webhook", "secrets", Map.of(
                "MP_JWT_VERIFY_PUBLICKEY_LOCATION", freshPublic.toString(),
                "WEBHOOK_SECRET_ENCRYPTION_KEY", Suite.WEBHOOK_LOCAL_DEV_ENCRYPTION_KEY));
        assertTrue(output.contains("WEBHOOK_SECRET_ENCRYPTION_KEY"), "the failure names the setting:\n" + output);
    }

    /**
     * Starts the packaged service in production with {@code keys} (RefusedStart: it exits, never listening, joining
     * no consumer group) and asserts it names the committed key as the reason.
     */
    private static String refusedStart(String service, String caseName, Map<String, String> keys) throws Exception {
        Map<String, String> env = new HashMap<>(keys);
        env.put("CRYPTOPAY_ENVIRONMENT", "production");
        String output = RefusedStart.of(service, "development-keys-" + service + "-" + caseName, PORT, env);
        assertTrue(output.contains("LOCAL DEVELOPMENT key"), "the failure says why:\n" + output);
        return output;
    }

    private static String dev(String file) {
        return Suite.get().root().resolve("deploy/local/keys/" + file).toString();
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
