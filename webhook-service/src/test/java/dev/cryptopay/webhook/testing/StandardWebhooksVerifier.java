package dev.cryptopay.webhook.testing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A receiver's verification written independently of the service's own signing code, the way the Standard
 * Webhooks Java library does it, after replacing {@code wk_} by {@code whsec_}.
 */
public final class StandardWebhooksVerifier {

    private StandardWebhooksVerifier() {
    }

    public static boolean verify(String signingKey, Receiver.Request request) {
        String whsec = "whsec_" + signingKey.substring("wk_".length());
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(whsec.substring("whsec_".length())), "HmacSHA256"));
            String expected = Base64.getEncoder().encodeToString(mac.doFinal(
                    (request.webhookId() + "." + request.timestamp() + "." + request.body())
                            .getBytes(StandardCharsets.UTF_8)));
            for (String versioned : request.signature().split(" ")) {
                String[] parts = versioned.split(",", 2);
                if (parts.length == 2 && parts[0].equals("v1")
                        && MessageDigest.isEqual(parts[1].getBytes(), expected.getBytes())) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
