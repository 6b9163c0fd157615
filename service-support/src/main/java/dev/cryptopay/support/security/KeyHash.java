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

    private KeyHash() {
    }

    public static String of(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
