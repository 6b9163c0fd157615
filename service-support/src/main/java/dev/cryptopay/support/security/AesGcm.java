package dev.cryptopay.support.security;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Secrets and documents at rest, sealed the one way the suite does it: AES-256-GCM (the JDK's own), a random 96-bit
 * nonce per value and the owning row's identity as associated data, so a sealed value copied onto another row does
 * not open. The sealed form is {@code nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)}; each caller wraps it in its
 * own stored format (a version byte, a text prefix) and names its own setting in errors.
 */
public final class AesGcm {

    /** AES-256: the key is 32 bytes. */
    public static final int KEY_BYTES = 32;
    public static final int NONCE_BYTES = 12;
    public static final int TAG_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    /** @throws IllegalArgumentException when {@code key} is not 32 bytes */
    public AesGcm(byte[] key) {
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("an AES-256 key is 32 bytes, not " + key.length);
        }
        this.key = new SecretKeySpec(key, "AES");
    }

    /** {@code nonce ‖ ciphertext ‖ tag} of {@code plain}, bound to {@code associatedData}. */
    public byte[] seal(byte[] associatedData, byte[] plain) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
            cipher.updateAAD(associatedData);
            byte[] sealed = cipher.doFinal(plain);
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK", e);
        }
    }

    /**
     * The plain bytes of a sealed value starting at {@code offset} of {@code stored}.
     *
     * @throws GeneralSecurityException when it does not open: another key, another row's value, a changed byte
     */
    public byte[] open(byte[] associatedData, byte[] stored, int offset) throws GeneralSecurityException {
        if (stored.length - offset < NONCE_BYTES + TAG_BYTES) {
            throw new GeneralSecurityException("too short to be a sealed value");
        }
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, stored, offset, NONCE_BYTES));
        cipher.updateAAD(associatedData);
        return cipher.doFinal(stored, offset + NONCE_BYTES, stored.length - offset - NONCE_BYTES);
    }

    /** SHA-256 of a raw key, lower-case hex: what a committed development key is recognised by, never logged. */
    public static String fingerprint(byte[] key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
