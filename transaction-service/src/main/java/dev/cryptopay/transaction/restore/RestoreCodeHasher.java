package dev.cryptopay.transaction.restore;

import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.environment.StartupChecks;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 of the KYC restore's codes and e-mail addresses (docs/decisions.md §64). A bare hash of a six-digit
 * code is reversed offline in a millisecond; under a key the database does not hold, a copy of the table is useless.
 * The key is {@code cryptopay.transaction.kyc-restore.code-key} ({@code KYC_RESTORE_CODE_KEY}) or, absent, derived
 * from the KYC document key (HMAC of a fixed label), which production must set anyway and which is refused there
 * when it is the LOCAL DEVELOPMENT key (KycDocuments); so the development key never hashes production codes.
 */
@ApplicationScoped
@Startup(StartupChecks.PRIORITY) // the key is checked at start-up, not at the first restore
public class RestoreCodeHasher {

    static final String LABEL = "cryptopay kyc-restore code key v1";

    private final byte[] key;

    public RestoreCodeHasher(TransactionServiceConfig config, Environment environment) {
        byte[] documentKey = Base64.getDecoder().decode(config.kyc().documentKey().strip());
        byte[] derivedDevelopment = hmac(Base64.getDecoder().decode(LOCAL_DEVELOPMENT_DOCUMENT_KEY),
                LABEL.getBytes(StandardCharsets.UTF_8));
        this.key = config.kycRestore().codeKey().filter(k -> !k.isBlank())
                .map(k -> Base64.getDecoder().decode(k.strip()))
                .orElseGet(() -> hmac(documentKey, LABEL.getBytes(StandardCharsets.UTF_8)));
        if (key.length < 32) {
            throw new IllegalStateException("cryptopay.transaction.kyc-restore.code-key (KYC_RESTORE_CODE_KEY) must be "
                    + "base64 of at least 32 random bytes (openssl rand -base64 32)");
        }
        if (environment.isProduction() && MessageDigest.isEqual(key, derivedDevelopment)) {
            throw new IllegalStateException("cryptopay.transaction.kyc-restore.code-key (KYC_RESTORE_CODE_KEY) is the "
                    + "LOCAL DEVELOPMENT key; production needs its own (openssl rand -base64 32)");
        }
    }

    /** Base64 of the committed LOCAL DEVELOPMENT KYC document key ("LOCAL-DEVELOPMENT-ONLY-kyc-key!!"). */
    static final String LOCAL_DEVELOPMENT_DOCUMENT_KEY = "TE9DQUwtREVWRUxPUE1FTlQtT05MWS1reWMta2V5ISE=";

    /** The stored form of an e-mail address (lower case, trimmed). */
    public String email(String email) {
        return hex(hmac(key, ("email\n" + email.strip().toLowerCase(Locale.ROOT)).getBytes(StandardCharsets.UTF_8)));
    }

    /** The stored form of a code, bound to its row so one code's hash says nothing about another's. */
    public String code(String rowId, String code) {
        return hex(hmac(key, ("code\n" + rowId + "\n" + code).getBytes(StandardCharsets.UTF_8)));
    }

    /** Constant-time comparison of two stored forms. */
    public static boolean same(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
