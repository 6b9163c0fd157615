package dev.cryptopay.transaction.kyc;

import dev.cryptopay.support.security.AesGcm;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.UUID;

/**
 * KYC documents at rest (docs/decisions.md §46): sealed with service-support {@link AesGcm} (AES-256-GCM, a random
 * nonce per document) with the document's id as associated data, so a sealed document copied onto another row does
 * not open. Stored form: {@code 0x01 ‖ nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)}; the leading version byte
 * leaves room for a key rotation later.
 */
public final class DocumentCipher {

    /** Version byte of the stored form. */
    static final byte VERSION = 1;

    private final AesGcm aes;

    private DocumentCipher(byte[] key) {
        if (key.length != AesGcm.KEY_BYTES) {
            throw new IllegalArgumentException("The KYC document key must be 32 bytes (AES-256), base64-encoded; "
                    + "this one has " + key.length + " bytes");
        }
        this.aes = new AesGcm(key);
    }

    /** The key from its configured form: base64 of 32 random bytes ({@code openssl rand -base64 32}). */
    public static DocumentCipher fromBase64(String base64) {
        return new DocumentCipher(decode(base64));
    }

    /** SHA-256 of the raw key, hex: compared with the committed development key's, never logged. */
    public static String fingerprint(String base64) {
        return AesGcm.fingerprint(decode(base64));
    }

    public byte[] seal(UUID documentId, byte[] plain) {
        byte[] sealed = aes.seal(aad(documentId), plain);
        return ByteBuffer.allocate(1 + sealed.length).put(VERSION).put(sealed).array();
    }

    /** The document's bytes; a wrong key, another row's content or a changed byte fail (IllegalStateException). */
    public byte[] open(UUID documentId, byte[] stored) {
        if (stored.length < 1 + AesGcm.NONCE_BYTES + AesGcm.TAG_BYTES || stored[0] != VERSION) {
            throw new IllegalStateException("Not a sealed KYC document");
        }
        try {
            return aes.open(aad(documentId), stored, 1);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("KYC document " + documentId + " does not open with the configured key", e);
        }
    }

    private static byte[] decode(String base64) {
        if (base64 == null || base64.isBlank()) {
            throw new IllegalArgumentException("The KYC document key is not set (KYC_DOCUMENT_ENCRYPTION_KEY)");
        }
        try {
            return Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("The KYC document key is not base64", e);
        }
    }

    private static byte[] aad(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits())
                .array();
    }
}
