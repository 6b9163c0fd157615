package dev.cryptopay.webhook.delivery;

import dev.cryptopay.webhook.service.SigningSecrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Known-answer tests: what we send must verify with the official Standard Webhooks libraries. */
class SignaturesTest {

    // The published test vector of the Standard Webhooks reference libraries
    // (standard-webhooks/standard-webhooks, libraries/python/tests/test_webhooks.py, test_sign_function).
    private static final String VECTOR_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String VECTOR_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long VECTOR_TIMESTAMP = 1614265330L;
    private static final String VECTOR_PAYLOAD = "{\"test\": 2432232314}";
    private static final String VECTOR_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void reproducesTheStandardWebhooksTestVector() {
        assertEquals(VECTOR_SIGNATURE, Signatures.sign(VECTOR_SECRET, VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD));
    }

    @Test
    void aWkKeyIsTheWhsecKeyWithAnotherPrefix() {
        String wk = "wk_" + VECTOR_SECRET.substring("whsec_".length());
        assertEquals(VECTOR_SIGNATURE, Signatures.sign(wk, VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD));
        assertTrue(Signatures.verify(wk, VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD,
                "v1,bm9wZQ== " + VECTOR_SIGNATURE));
    }

    @Test
    void everySignedPartMatters() {
        String wk = "wk_" + VECTOR_SECRET.substring("whsec_".length());
        assertNotEquals(VECTOR_SIGNATURE, Signatures.sign(wk, VECTOR_ID, VECTOR_TIMESTAMP + 1, VECTOR_PAYLOAD));
        assertNotEquals(VECTOR_SIGNATURE, Signatures.sign(wk, "msg_other", VECTOR_TIMESTAMP, VECTOR_PAYLOAD));
        assertNotEquals(VECTOR_SIGNATURE, Signatures.sign(wk, VECTOR_ID, VECTOR_TIMESTAMP, "{\"test\":2432232314}"));
        assertNotEquals(VECTOR_SIGNATURE, Signatures.sign(SigningSecrets.newSecret(), VECTOR_ID, VECTOR_TIMESTAMP,
                VECTOR_PAYLOAD));
        assertFalse(Signatures.verify(wk, VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD,
                "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA="));
    }

    @Test
    void newKeysAreWkPlusBase64Of32RandomBytes() {
        String key = SigningSecrets.newSecret();
        assertTrue(key.startsWith("wk_"), key);
        assertEquals(47, key.length());
        assertEquals(32, Base64.getDecoder().decode(key.substring(3)).length);
        assertNotEquals(key, SigningSecrets.newSecret());
    }

    @Test
    void duringARotationTheHeaderCarriesOneSignaturePerSecretAndEachVerifies() {
        String current = SigningSecrets.newSecret();
        String previous = SigningSecrets.newSecret();
        String header = Signatures.header(java.util.List.of(current, previous), VECTOR_ID, VECTOR_TIMESTAMP,
                VECTOR_PAYLOAD);
        assertEquals(2, header.split(" ").length, header);
        assertTrue(Signatures.verify(current, VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD, header));
        assertTrue(Signatures.verify(previous, VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD, header));
        assertFalse(Signatures.verify(SigningSecrets.newSecret(), VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD,
                header));
        assertEquals(Signatures.sign(current, VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD),
                Signatures.header(java.util.List.of(current), VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_PAYLOAD));
    }
}
