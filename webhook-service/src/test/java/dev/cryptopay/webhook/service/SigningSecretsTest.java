package dev.cryptopay.webhook.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.environment.Environment;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Signing secrets at rest (docs/decisions.md §42): sealed per webhook, opened only with the same key and webhook. */
class SigningSecretsTest {

    private static final byte[] DEV = "cryptopay-LOCAL-DEV-ONLY-webhook".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OTHER = "another-32-byte-key-for-the-test".getBytes(StandardCharsets.US_ASCII);

    private final SigningSecrets secrets = new SigningSecrets(DEV, Environment.SANDBOX);

    @Test
    void aSealedSecretOpensForItsWebhookAndShowsNothingOfTheSecret() {
        UUID webhook = UUID.randomUUID();
        String secret = SigningSecrets.newSecret();
        String sealed = secrets.seal(webhook, secret);
        assertTrue(SigningSecrets.isSealed(sealed), sealed);
        assertFalse(sealed.contains(secret.substring(3)));
        assertNotEquals(sealed, secrets.seal(webhook, secret), "a fresh nonce each time");
        assertEquals(secret, secrets.open(webhook, sealed));
    }

    @Test
    void itDoesNotOpenForAnotherWebhookOrUnderAnotherKeyOrWhenTamperedWith() {
        UUID webhook = UUID.randomUUID();
        String sealed = secrets.seal(webhook, SigningSecrets.newSecret());
        assertThrows(IllegalStateException.class, () -> secrets.open(UUID.randomUUID(), sealed));
        assertThrows(IllegalStateException.class,
                () -> new SigningSecrets(OTHER, Environment.SANDBOX).open(webhook, sealed));
        char[] chars = sealed.toCharArray();
        chars[10] = chars[10] == 'A' ? 'B' : 'A';
        assertThrows(IllegalStateException.class, () -> secrets.open(webhook, new String(chars)));
    }

    @Test
    void aSecretWrittenBeforeEncryptionStillReads() {
        String clear = SigningSecrets.newSecret();
        assertFalse(SigningSecrets.isSealed(clear));
        assertEquals(clear, secrets.open(UUID.randomUUID(), clear));
    }

    @Test
    void productionRefusesTheLocalDevelopmentKeyAndEveryKeyMustBe32Bytes() {
        assertThrows(IllegalStateException.class, () -> new SigningSecrets(DEV, Environment.PRODUCTION));
        new SigningSecrets(OTHER, Environment.PRODUCTION);
        assertThrows(IllegalStateException.class, () -> SigningSecrets.decodeKey("c2hvcnQ="));
        assertThrows(IllegalStateException.class, () -> SigningSecrets.decodeKey("not base64!"));
        assertEquals(32, SigningSecrets.decodeKey("Y3J5cHRvcGF5LUxPQ0FMLURFVi1PTkxZLXdlYmhvb2s=").length);
    }

    @Test
    void theMaskShowsThePrefixAndTheLastFourCharacters() {
        String secret = "wk_" + "A".repeat(40) + "xyz=";
        assertEquals("wk_\u2026xyz=", SigningSecrets.mask(secret));
    }
}
