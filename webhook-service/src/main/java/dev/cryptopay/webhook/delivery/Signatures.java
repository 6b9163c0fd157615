package dev.cryptopay.webhook.delivery;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures (decisions §7): {@code webhook-signature} is {@code v1,} followed by the base64 of
 * HMAC-SHA256 over {@code {webhook-id}.{webhook-timestamp}.{body}}, keyed with the bytes that base64-decoding the
 * text after the {@code wk_} prefix gives. A Standard Webhooks library verifies it when given the key with
 * {@code wk_} replaced by {@code whsec_}.
 */
public final class Signatures {

    public static final String KEY_PREFIX = "wk_";
    /** Random bytes in a signing key (256 bits, the HMAC-SHA256 block-size recommendation). */
    public static final int KEY_BYTES = 32;
    private static final String HMAC = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Signatures() {
    }

    /** A new signing key: {@code wk_} + standard base64 (with padding) of 32 random bytes, 47 characters. */
    public static String newKey() {
        byte[] bytes = new byte[KEY_BYTES];
        RANDOM.nextBytes(bytes);
        return KEY_PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * The {@code webhook-signature} value for one attempt. {@code key} is a {@code wk_} key; for the published
     * test vectors a {@code whsec_} key or the bare base64 text is accepted as well.
     */
    public static String sign(String key, String webhookId, long timestampSeconds, String body) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(keyBytes(key), HMAC));
            byte[] digest = mac.doFinal((webhookId + "." + timestampSeconds + "." + body)
                    .getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Constant-time check of one {@code v1,} signature against a possibly space-separated header value. */
    public static boolean verify(String key, String webhookId, long timestampSeconds, String body, String header) {
        byte[] expected = sign(key, webhookId, timestampSeconds, body).getBytes(StandardCharsets.US_ASCII);
        for (String candidate : header.split(" ")) {
            if (MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII))) {
                return true;
            }
        }
        return false;
    }

    static byte[] keyBytes(String key) {
        String text = key;
        if (text.startsWith(KEY_PREFIX)) {
            text = text.substring(KEY_PREFIX.length());
        } else if (text.startsWith("whsec_")) {
            text = text.substring("whsec_".length());
        }
        return Base64.getDecoder().decode(text);
    }
}
