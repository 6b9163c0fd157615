package dev.cryptopay.support.security;

import dev.cryptopay.support.problem.ApiException;
import jakarta.enterprise.context.RequestScoped;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** Who is calling, read from the verified internal identity token of the current request. */
@RequestScoped
public class Caller {

    private final JsonWebToken token;

    public Caller(JsonWebToken token) {
        this.token = token;
    }

    public String keyId() {
        return token.getSubject();
    }

    public String keyType() {
        return claimText(IdentityClaims.KEY_TYPE).orElse(null);
    }

    public boolean hasRole(String role) {
        return token.getGroups() != null && token.getGroups().contains(role);
    }

    public Optional<UUID> accountId() {
        return uuidClaim(IdentityClaims.ACCOUNT);
    }

    public Optional<UUID> merchantId() {
        return uuidClaim(IdentityClaims.MERCHANT);
    }

    /** A merchant the caller named (X-MID or a sub-merchant publishable key), not yet resolved. */
    public Optional<String> merchantRef() {
        return claimText(IdentityClaims.MERCHANT_REF).filter(text -> !text.isBlank());
    }

    /**
     * Ensures the caller acts for {@code pathAccount}; a path naming another account is 403 (docs/decisions.md §1).
     */
    public UUID requireAccount(UUID pathAccount) {
        UUID own = accountId().orElseThrow(() -> ApiException.forbidden("This endpoint needs an account key."));
        if (!own.equals(pathAccount)) {
            throw ApiException.forbidden("The key does not belong to this account.");
        }
        return own;
    }

    private Optional<UUID> uuidClaim(String name) {
        return claimText(name).filter(text -> !text.isBlank()).map(UUID::fromString);
    }

    /**
     * A claim of the token as text (a JSON string claim unwrapped), empty when the token lacks it. A kept token
     * ({@link VerifiedTokens.Kept}) answers from the claims read when it was verified.
     */
    private Optional<String> claimText(String name) {
        Object value = token.getClaim(name);
        if (value == null) {
            return Optional.empty();
        }
        return Optional.of(value instanceof jakarta.json.JsonString s ? s.getString() : value.toString());
    }
}
