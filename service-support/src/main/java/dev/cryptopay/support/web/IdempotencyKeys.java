package dev.cryptopay.support.web;

import dev.cryptopay.support.security.KeyHash;

/**
 * The {@code Idempotency-Key} header (docs/decisions.md §6, §28, §112): what a valid key is, and whose it is. The
 * gateway keeps a record per key; transaction- and subscription-service keep one too for the creations that move
 * money (IdempotentCreations), with the same rules, so all of them name a caller's key alike.
 */
public final class IdempotencyKeys {

    public static final String HEADER = "Idempotency-Key";
    /** The problem detail of an invalid key, on the field {@link #HEADER}. */
    public static final String INVALID = "must be 1 to 255 visible ASCII characters";

    private IdempotencyKeys() {
    }

    /** 1 to 255 visible ASCII characters. */
    public static boolean valid(String key) {
        return !key.isBlank() && key.length() <= 255 && key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e);
    }

    /**
     * Whose key it is: the key type, the account, the calling key and the merchant the request names (resolved, and
     * as written: X-MID or a sub-merchant publishable key), hashed to a fixed width (64 hex characters).
     */
    public static String scope(String keyType, Object accountId, String subject, Object merchantId,
            String merchantRef) {
        return KeyHash.of(keyType + "|" + accountId + "|" + subject + "|" + merchantId + "|" + merchantRef);
    }
}
