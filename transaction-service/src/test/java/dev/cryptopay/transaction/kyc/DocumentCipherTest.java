package dev.cryptopay.transaction.kyc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** KYC documents at rest (docs/decisions.md §46): AES-256-GCM, the document id bound in, any change detected. */
class DocumentCipherTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private final DocumentCipher cipher = DocumentCipher.fromBase64(KEY);
    private final UUID id = UUID.randomUUID();
    private final byte[] document = "%PDF-1.7 passport of Ada Lovelace".getBytes(StandardCharsets.US_ASCII);

    @Test
    void sealsAndOpensWithTheSameKeyAndId() {
        byte[] sealed = cipher.seal(id, document);
        assertEquals(document.length + 1 + 12 + 16, sealed.length);
        assertEquals(DocumentCipher.VERSION, sealed[0]);
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("Lovelace"));
        assertArrayEquals(document, cipher.open(id, sealed));
        assertFalse(Arrays.equals(sealed, cipher.seal(id, document)), "a fresh nonce each time");
    }

    @Test
    void anotherIdAnotherKeyOrAChangedByteDoNotOpen() {
        byte[] sealed = cipher.seal(id, document);
        assertThrows(IllegalStateException.class, () -> cipher.open(UUID.randomUUID(), sealed));
        byte[] otherKey = new byte[32];
        otherKey[0] = 1;
        assertThrows(IllegalStateException.class, () -> DocumentCipher
                .fromBase64(Base64.getEncoder().encodeToString(otherKey)).open(id, sealed));
        byte[] changed = sealed.clone();
        changed[20] ^= 1;
        assertThrows(IllegalStateException.class, () -> cipher.open(id, changed));
        assertThrows(IllegalStateException.class, () -> cipher.open(id, document), "not a sealed document");
    }

    @Test
    void theKeyMustBe32BytesOfBase64() {
        assertThrows(IllegalArgumentException.class, () -> DocumentCipher.fromBase64(null));
        assertThrows(IllegalArgumentException.class, () -> DocumentCipher.fromBase64(" "));
        assertThrows(IllegalArgumentException.class, () -> DocumentCipher.fromBase64("not base64!"));
        assertThrows(IllegalArgumentException.class,
                () -> DocumentCipher.fromBase64(Base64.getEncoder().encodeToString(new byte[16])));
    }
}
