package dev.cryptopay.gateway.auth;

import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.support.security.IdentityClaims;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Mints the short-lived RS256 identity token passed downstream. An RSA signature costs far more than the
 * proxying itself, so a token is reused for the same identity while more than half its lifetime remains.
 */
@ApplicationScoped
public class TokenMinter {

    private record Minted(String token, Instant reuseUntil) {
    }

    private final GatewayConfig config;
    private final Map<Identity, Minted> recent = new ConcurrentHashMap<>();

    public TokenMinter(GatewayConfig config) {
        this.config = config;
    }

    /** The identity's token if one minted earlier may still be reused (never signs, so never costs a signature). */
    public Optional<String> recentTokenFor(Identity identity) {
        Minted minted = recent.get(identity);
        return minted == null || Instant.now().isAfter(minted.reuseUntil()) ? Optional.empty()
                : Optional.of(minted.token());
    }

    public String tokenFor(Identity identity) {
        Instant now = Instant.now();
        Minted minted = recent.get(identity);
        if (minted == null || now.isAfter(minted.reuseUntil())) {
            minted = new Minted(sign(identity, now), now.plus(config.identityTokenLifetime().dividedBy(2)));
            if (recent.size() > 10_000) {
                recent.clear();
            }
            recent.put(identity, minted);
        }
        return minted.token();
    }

    private String sign(Identity identity, Instant now) {
        JwtClaimsBuilder claims = Jwt.issuer(IdentityClaims.ISSUER)
                .audience(IdentityClaims.AUDIENCE)
                .subject(identity.subject())
                .upn(identity.subject())
                .groups(identity.role())
                .claim(IdentityClaims.KEY_TYPE, identity.keyType())
                .issuedAt(now)
                .expiresAt(now.plus(config.identityTokenLifetime()));
        if (identity.accountId() != null) {
            claims.claim(IdentityClaims.ACCOUNT, identity.accountId().toString());
        }
        if (identity.merchantId() != null) {
            claims.claim(IdentityClaims.MERCHANT, identity.merchantId().toString());
        }
        if (identity.merchantRef() != null) {
            claims.claim(IdentityClaims.MERCHANT_REF, identity.merchantRef());
        }
        return claims.sign();
    }
}
