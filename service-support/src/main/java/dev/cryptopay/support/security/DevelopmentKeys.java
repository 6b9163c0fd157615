package dev.cryptopay.support.security;

import dev.cryptopay.support.environment.Environment;
import io.quarkus.runtime.LaunchMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The key pairs committed in {@code deploy/local/keys} are public knowledge: anyone can sign an internal identity
 * token or an operator token with them. A service whose environment is {@code production} refuses to start when any
 * key it is given (to verify tokens, or, in the gateway, to sign them) is one of them, recognised by the SHA-256
 * fingerprint of its public key (DER SubjectPublicKeyInfo), whatever the file is called (docs/decisions.md §29).
 * Tied to the environment, not to a Quarkus profile: the local scripts run the packaged (production-profile) jars.
 * The one exception is Quarkus' own test launch mode ({@code @QuarkusTest}, which a packaged jar never runs in): a
 * module's tests of production behaviour (e.g. webhook-service's production address policy) sign their requests with
 * the committed key.
 */
public final class DevelopmentKeys {

    /** Fingerprint → the committed pair it belongs to. Regenerating the local keys means updating these. */
    static final Map<String, String> COMMITTED = Map.of(
            "c8ea5371b1ffe205c21305650bd6ae5d5f751c12667fa3936fe5827d50b08db5",
            "deploy/local/keys/local-dev-internal-*.pem (internal identity tokens)",
            "0cb5041f40359f8327bab6737b1a5a46e77143e63a1045cf3304cf2e2ef94a52",
            "deploy/local/keys/local-dev-operator-*.pem (operator tokens)");

    private DevelopmentKeys() {
    }

    /**
     * Stops start-up when {@code environment} is production and {@code pem} (a public or an RSA private key, PEM or
     * base64 DER) is a committed development key. {@code setting} names the configuration that supplied it.
     */
    public static void refuseInProduction(Environment environment, String setting, String pem) {
        if (!environment.isProduction() || pem == null || LaunchMode.current() == LaunchMode.TEST) {
            return;
        }
        publicKeyOf(pem).map(DevelopmentKeys::fingerprint).filter(COMMITTED::containsKey).ifPresent(fingerprint -> {
            throw new IllegalStateException(setting + " is the committed LOCAL DEVELOPMENT key "
                    + COMMITTED.get(fingerprint) + ", SHA-256 fingerprint " + fingerprint
                    + "; its private key is public, so a production service refuses it (CRYPTOPAY_ENVIRONMENT="
                    + "production; docs/decisions.md §29). Configure this deployment's own key. The service does not"
                    + " start.");
        });
    }

    /** As {@link #refuseInProduction(Environment, String, String)}, for a key named by location (file or classpath). */
    public static void refuseLocationInProduction(Environment environment, String setting, String location) {
        if (environment.isProduction() && location != null && !location.isBlank()) {
            refuseInProduction(environment, setting + " = " + location.strip(), read(location.strip()));
        }
    }

    /** SHA-256 over the key's DER encoding, lower-case hex. */
    public static String fingerprint(PublicKey key) {
        return AesGcm.fingerprint(key.getEncoded());
    }

    /** The public key of a PEM or base64 DER key; empty when it is neither an X.509 public key nor an RSA private key. */
    static Optional<PublicKey> publicKeyOf(String text) {
        String base64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        for (String algorithm : new String[] {"RSA", "EC"}) {
            try {
                return Optional.of(KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der)));
            } catch (GeneralSecurityException | RuntimeException e) {
                // not a public key of this algorithm
            }
        }
        try {
            if (KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der))
                    instanceof RSAPrivateCrtKey rsa) {
                return Optional.of(KeyFactory.getInstance("RSA")
                        .generatePublic(new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent())));
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            // not an RSA private key
        }
        return Optional.empty();
    }

    /** The text at a file path, {@code file:} URL or {@code classpath:} resource; null when it cannot be read. */
    static String read(String location) {
        try {
            if (location.startsWith("classpath:") || !location.contains("/") && !Files.exists(Path.of(location))) {
                String resource = location.startsWith("classpath:") ? location.substring(10) : location;
                resource = resource.startsWith("/") ? resource.substring(1) : resource;
                try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
                    return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            String path = location.startsWith("file:") ? location.substring(5) : location;
            return Files.readString(Path.of(path));
        } catch (IOException | RuntimeException e) {
            return null; // the verifier itself reports a key it cannot read
        }
    }
}
