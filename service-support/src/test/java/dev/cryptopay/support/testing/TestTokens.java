package dev.cryptopay.support.testing;

import dev.cryptopay.support.security.IdentityClaims;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;

/**
 * Internal identity tokens for service tests, signed with the committed local development key exactly as the
 * gateway signs them (shipped to the services' tests in this module's test-jar).
 */
public final class TestTokens {

    private static final Path DEV_KEY = locate("deploy/local/keys/local-dev-internal-private.pem");

    private TestTokens() {
    }

    public static String operator() {
        return claims("local-operator", IdentityClaims.ROLE_OPERATOR, IdentityClaims.ROLE_OPERATOR, null).sign(key());
    }

    public static String admin(UUID account) {
        return apiKey(account, IdentityClaims.ROLE_ADMIN);
    }

    public static String apiKey(UUID account, String role) {
        return claims(UUID.randomUUID().toString(), "api", role, account).sign(key());
    }

    public static String anonymous() {
        return claims("anonymous", IdentityClaims.ROLE_ANONYMOUS, IdentityClaims.ROLE_ANONYMOUS, null).sign(key());
    }

    /** A token the gateway would mint but already expired. */
    public static String expired(UUID account) {
        Instant past = Instant.now().minusSeconds(600);
        return Jwt.issuer(IdentityClaims.ISSUER).audience(IdentityClaims.AUDIENCE).subject("old")
                .groups(IdentityClaims.ROLE_ADMIN).claim(IdentityClaims.ACCOUNT, account.toString())
                .issuedAt(past.minusSeconds(60)).expiresAt(past).sign(key());
    }

    public static JwtClaimsBuilder claims(String subject, String keyType, String role, UUID account) {
        JwtClaimsBuilder builder = Jwt.issuer(IdentityClaims.ISSUER).audience(IdentityClaims.AUDIENCE)
                .subject(subject).upn(subject).groups(role).claim(IdentityClaims.KEY_TYPE, keyType)
                .expiresIn(60);
        if (account != null) {
            builder.claim(IdentityClaims.ACCOUNT, account.toString());
        }
        return builder;
    }

    public static String key() {
        return DEV_KEY.toString();
    }

    private static Path locate(String relative) {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.exists(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("cannot find " + relative + " above the working directory");
    }
}
