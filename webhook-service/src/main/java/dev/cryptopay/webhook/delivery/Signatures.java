package dev.cryptopay.webhook.delivery;

import dev.cryptopay.webhook.service.SigningSecrets;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures (docs/decisions.md §7): {@code webhook-signature} is {@code v1,} followed by the base64 of
 * HMAC-SHA256 over {@code {webhook-id}.{webhook-timestamp}.{body}}, keyed with the bytes that base64-decoding the
 * text after the {@code wk_} prefix gives. A Standard Webhooks library verifies it when given the key with
 * {@code wk_} replaced by {@code whsec_}.
 */
public final class Signatures {

    private static final String HMAC = "HmacSHA256";

    private Signatures() {
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

    /** The {@code webhook-signature} header: one signature per secret, space-separated (Standard Webhooks). */
    public static String header(List<String> keys, String webhookId, long timestampSeconds, String body) {
        StringBuilder header = new StringBuilder();
        for (String key : keys) {
            if (!header.isEmpty()) {
                header.append(' ');
            }
            header.append(sign(key, webhookId, timestampSeconds, body));
        }
        return header.toString();
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
        if (text.startsWith(SigningSecrets.KEY_PREFIX)) {
            text = text.substring(SigningSecrets.KEY_PREFIX.length());
        } else if (text.startsWith("whsec_")) {
            text = text.substring("whsec_".length());
        }
        return Base64.getDecoder().decode(text);
    }
}
