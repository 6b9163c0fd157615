package dev.cryptopay.gateway.auth;

import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.support.security.IdentityClaims;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * Mints the short-lived RS256 identity token passed downstream. An RSA signature costs far more than the proxying
 * itself, so a token is reused for the same identity while more than half its lifetime remains.
 *
 * <p>An identity asked for again once two fifths of its token's lifetime have passed gets a new token signed in the
 * background (on the {@code token-refresh} thread) while the current one is still handed out, so an identity in use
 * at least every tenth of the lifetime (6 s of the default 60) never waits for a signature. Without this every
 * identity's request paid a signature, and a hand-off from the event loop to a worker, once every half lifetime: with
 * 200 merchants, one request in about thirty (docs/performance.md, twenty-ninth step).
 */
@ApplicationScoped
public class TokenMinter {

    private static final Logger LOG = Logger.getLogger(TokenMinter.class);

    /** A token, when it was signed, and until when it is handed out (System.nanoTime). */
    private record Minted(String token, long signedAt, long reuseUntil) {
    }

    private final long refreshAfterNanos;
    private final long reuseNanos;
    private final BiFunction<Identity, Instant, String> signer;
    private final LongSupplier nanoClock;
    /** Signs identities' next tokens in the background, one task per identity at a time. */
    private final BackgroundRefresh<Identity> refresher;
    private final Map<Identity, Minted> recent = new ConcurrentHashMap<>();

    @Inject
    public TokenMinter(GatewayConfig config) {
        this(config.identityTokenLifetime(), (identity, now) -> sign(identity, now, config.identityTokenLifetime()),
                System::nanoTime, new BackgroundRefresh<>("token-refresh"));
    }

    /** With a signer, a clock and a background executor of the caller's (tests). */
    TokenMinter(Duration lifetime, BiFunction<Identity, Instant, String> signer, LongSupplier nanoClock,
            ExecutorService background) {
        this(lifetime, signer, nanoClock, new BackgroundRefresh<>(background));
    }

    private TokenMinter(Duration lifetime, BiFunction<Identity, Instant, String> signer, LongSupplier nanoClock,
            BackgroundRefresh<Identity> refresher) {
        this.reuseNanos = lifetime.toNanos() / 2;
        this.refreshAfterNanos = lifetime.toNanos() * 2 / 5;
        this.signer = signer;
        this.nanoClock = nanoClock;
        this.refresher = refresher;
    }

    @PreDestroy
    void stop() {
        refresher.stop();
    }

    /** The identity's token if one minted earlier may still be reused (never signs, so never costs a signature). */
    public Optional<String> recentTokenFor(Identity identity) {
        long now = nanoClock.getAsLong();
        Minted minted = reusable(identity, now);
        return minted == null ? Optional.empty() : Optional.of(minted.token());
    }

    /** The identity's token: one minted earlier while it may be reused, else one signed now. */
    public String tokenFor(Identity identity) {
        long now = nanoClock.getAsLong();
        Minted minted = reusable(identity, now);
        return minted != null ? minted.token() : mint(identity, now).token();
    }

    /** The identity's reusable token, if any, and a new one started in the background when it is due. */
    private Minted reusable(Identity identity, long now) {
        Minted minted = recent.get(identity);
        if (minted == null || now - minted.reuseUntil() > 0) {
            return null;
        }
        if (now - minted.signedAt() >= refreshAfterNanos) {
            refresher.start(identity, () -> mint(identity, nanoClock.getAsLong()), e -> LOG.warnf(
                    "signing an identity token in the background failed: %s", e.getMessage()));
        }
        return minted;
    }

    private Minted mint(Identity identity, long now) {
        Minted minted = new Minted(signer.apply(identity, Instant.now()), now, now + reuseNanos);
        if (recent.size() > 10_000) {
            recent.clear();
        }
        // a token signed later replaces one signed earlier, never the other way round
        return recent.merge(identity, minted, (old, signed) -> signed.signedAt() - old.signedAt() >= 0 ? signed : old);
    }

    private static String sign(Identity identity, Instant now, Duration lifetime) {
        JwtClaimsBuilder claims = Jwt.issuer(IdentityClaims.ISSUER)
                .audience(IdentityClaims.AUDIENCE)
                .subject(identity.subject())
                .upn(identity.subject())
                .groups(identity.role())
                .claim(IdentityClaims.KEY_TYPE, identity.keyType())
                .issuedAt(now)
                .expiresAt(now.plus(lifetime));
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
