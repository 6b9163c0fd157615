package dev.cryptopay.webhook.service;

import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.environment.StartupChecks;
import dev.cryptopay.support.security.AesGcm;
import dev.cryptopay.webhook.config.WebhookConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;

/**
 * Webhook signing secrets (docs/decisions.md §42): new ones, their encryption at rest, and the masked form a read-only
 * key sees.
 *
 * <p>A secret is {@code wk_} + standard base64 (with padding) of 32 random bytes, 47 characters. At rest it is sealed
 * with service-support {@link AesGcm} (AES-256-GCM) under the key {@code cryptopay.webhooks.secrets.encryption-key}: {@code v1:} + base64 of the
 * 12-byte nonce followed by the ciphertext and tag, with the webhook's id as associated data (a sealed value copied
 * to another webhook's row does not open). A value that still starts with {@code wk_} is one written before
 * encryption; {@link SecretsAtRest} seals those at start-up and {@link #open} still reads them meanwhile.
 */
@ApplicationScoped
@Startup(StartupChecks.PRIORITY) // the development key is refused before the Kafka channels connect
public class SigningSecrets {

    public static final String KEY_PREFIX = "wk_";
    /** Random bytes in a signing secret (256 bits, the HMAC-SHA256 block-size recommendation). */
    public static final int SECRET_BYTES = 32;
    private static final String SEALED_PREFIX = "v1:";
    /** SHA-256 of the LOCAL DEVELOPMENT encryption key of application.properties and the local scripts. */
    private static final String LOCAL_DEVELOPMENT_KEY_SHA256 =
            "18e66d99e40fa9d1859439c7645db30cc4b30b8cd842f30a8919ee546c366f87";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final AesGcm aes;

    @Inject
    public SigningSecrets(WebhookConfig config, Environment environment) {
        this(decodeKey(config.secrets().encryptionKey()), environment);
    }

    SigningSecrets(byte[] key, Environment environment) {
        if (environment.isProduction() && isLocalDevelopmentKey(key)) {
            throw new IllegalStateException("cryptopay.webhooks.secrets.encryption-key "
                    + "(WEBHOOK_SECRET_ENCRYPTION_KEY) is the LOCAL DEVELOPMENT key; production needs "
                    + "its own (docs/decisions.md §42). The service does not start with it.");
        }
        this.aes = new AesGcm(key);
    }

    /** A new signing secret: {@code wk_} + standard base64 of 32 random bytes. */
    public static String newSecret() {
        byte[] bytes = new byte[SECRET_BYTES];
        RANDOM.nextBytes(bytes);
        return KEY_PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    /** The secret as stored for {@code webhookId}. */
    public String seal(UUID webhookId, String secret) {
        return SEALED_PREFIX + Base64.getEncoder().encodeToString(
                aes.seal(associatedData(webhookId), secret.getBytes(StandardCharsets.US_ASCII)));
    }

    /** The secret a stored value holds; throws {@link IllegalStateException} when it does not open under this key. */
    public String open(UUID webhookId, String stored) {
        if (!isSealed(stored)) {
            return stored; // written before encryption, sealed at the next start-up (SecretsAtRest)
        }
        try {
            byte[] raw = Base64.getDecoder().decode(stored.substring(SEALED_PREFIX.length()));
            return new String(aes.open(associatedData(webhookId), raw, 0), StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("the signing secret of webhook " + webhookId
                    + " does not open with the configured encryption key", e);
        }
    }

    public static boolean isSealed(String stored) {
        return stored != null && stored.startsWith(SEALED_PREFIX);
    }

    /** What a read-only key sees: {@code wk_…} and the last four characters. */
    public static String mask(String secret) {
        return KEY_PREFIX + "\u2026" + secret.substring(Math.max(KEY_PREFIX.length(), secret.length() - 4));
    }

    private static byte[] associatedData(UUID webhookId) {
        return ("webhook:" + webhookId).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] decodeKey(String text) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("cryptopay.webhooks.secrets.encryption-key must be standard base64");
        }
        if (key.length != AesGcm.KEY_BYTES) {
            throw new IllegalStateException("cryptopay.webhooks.secrets.encryption-key must be base64 of 32 bytes "
                    + "(AES-256), not " + key.length);
        }
        return key;
    }

    static boolean isLocalDevelopmentKey(byte[] key) {
        return AesGcm.fingerprint(key).equals(LOCAL_DEVELOPMENT_KEY_SHA256);
    }
}
