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
    private final VerifiedTokens verified;

    public Caller(JsonWebToken token, VerifiedTokens verified) {
        this.token = token;
        this.verified = verified;
    }

    public String keyId() {
        return token.getSubject();
    }

    public String keyType() {
        Object value = verified.claim(token, IdentityClaims.KEY_TYPE);
        return value == null ? null : value instanceof jakarta.json.JsonString s ? s.getString() : value.toString();
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
        Object value = verified.claim(token, IdentityClaims.MERCHANT_REF);
        if (value == null) {
            return Optional.empty();
        }
        String text = value instanceof jakarta.json.JsonString s ? s.getString() : value.toString();
        return text.isBlank() ? Optional.empty() : Optional.of(text);
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
        Object value = verified.claim(token, name);
        if (value == null) {
            return Optional.empty();
        }
        String text = value instanceof jakarta.json.JsonString s ? s.getString() : value.toString();
        return text.isBlank() ? Optional.empty() : Optional.of(UUID.fromString(text));
    }
}
