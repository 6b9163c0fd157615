package dev.cryptopay.support.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How keys are stored and looked up: lowercase hex SHA-256 of the key string. Keys carry at least 128
 * random bits, so a fast unsalted hash is safe here (unlike passwords) and lets the gateway find a key by it.
 */
public final class KeyHash {

    /**
     * A digest never used itself, only copied: the gateway hashes the key of every request, and looking the algorithm
     * up among the providers each time ({@code MessageDigest.getInstance}) cost more than the hash
     * (docs/performance.md, twenty-fourth step). The JDK's SHA-256 can be cloned; a provider whose digest cannot is
     * asked for a new one instead.
     */
    private static final MessageDigest PROTOTYPE = newDigest();
    private static final HexFormat HEX = HexFormat.of();

    private KeyHash() {
    }

    public static String of(String key) {
        return HEX.formatHex(sha256(key));
    }

    /** SHA-256 of the string's UTF-8 bytes (also what {@link VerifiedTokens} keeps a token under). */
    static byte[] sha256(String text) {
        return digest().digest(text.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest digest() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newDigest();
        }
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
