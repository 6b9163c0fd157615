package dev.cryptopay.merchant.service;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Makes key material: 24 random bytes (192 bits, above the 128 of docs/decisions.md §4) per key, base64url-encoded
 * after the prefix; 32 random bytes for an API key's private key. The JDK's SecureRandom is all this needs.
 */
@ApplicationScoped
public class SecretGenerator {

    private final SecureRandom random = new SecureRandom();

    public String newKey(String prefix) {
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(24));
    }

    public String newPrivateKey() {
        return Base64.getEncoder().encodeToString(bytes(32));
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
