package dev.cryptopay.gateway.auth;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.gateway.routing.AuthMode;
import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.environment.StartupChecks;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.DevelopmentKeys;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.security.KeyHash;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.jwt.util.KeyUtils;
import io.quarkus.runtime.Startup;
import io.vertx.core.MultiMap;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Establishes the caller of one request according to its route's {@link AuthMode} (docs/decisions.md §4).
 * {@link #authenticate} may read the key store or ask merchant-service, so the router calls it off the event loop;
 * {@link #fromMemory} answers only what the directory's caches already hold, without blocking, so a busy key's
 * requests stay on the event loop (docs/decisions.md §77). Both decide alike: the same checks, the same refusals.
 */
// the operator key is read (and, in production, checked against the development keys) at start-up, before the Kafka
// channels connect (StartupChecks)
@Startup(StartupChecks.PRIORITY)
@ApplicationScoped
public class Authenticator {

    public static final String API_KEY_HEADER = "X-Api-Key";
    public static final String PUBLISHABLE_KEY_HEADER = "X-Publishable-Key";
    public static final String MID_HEADER = "X-MID";
    public static final String ACCOUNT_HEADER = "X-Account-Id";

    private final Optional<JWTParser> operatorParser;
    private final Directory directory;
    private final UnknownKeys unknownKeys;

    public Authenticator(GatewayConfig config, Directory directory, UnknownKeys unknownKeys, Environment environment) {
        this.directory = directory;
        this.unknownKeys = unknownKeys;
        GatewayConfig.Operator operator = config.operator();
        this.operatorParser = operator.publicKeyLocation().filter(l -> !l.isBlank()).map(location -> {
            String pem;
            try {
                pem = Files.readString(Path.of(location));
            } catch (Exception e) {
                throw new IllegalStateException("cannot read the operator public key at " + location, e);
            }
            DevelopmentKeys.refuseInProduction(environment,
                    "gateway.operator.public-key-location (OPERATOR_JWT_PUBLIC_KEY_LOCATION) = " + location, pem);
            try {
                PublicKey key = KeyUtils.decodePublicKey(pem);
                JWTAuthContextInfo info = new JWTAuthContextInfo(key, operator.issuer());
                // docs/decisions.md §30: the token names this API as its audience, carries iat and exp, lives at most
                // max-token-age and is not honoured longer than that after it was issued.
                info.setExpectedAudience(Set.of(operator.audience()));
                info.setMaxTimeToLiveSecs(operator.maxTokenAge().toSeconds());
                info.setTokenAge(operator.maxTokenAge().toSeconds());
                return new DefaultJWTParser(info);
            } catch (Exception e) {
                throw new IllegalStateException("cannot read the operator public key at " + location, e);
            }
        });
    }

    /** Blocking: may read the key store and ask merchant-service. */
    public Identity authenticate(AuthMode mode, String method, MultiMap headers) {
        return authenticate(mode, method, headers, false);
    }

    /**
     * The caller from memory only (never blocks): empty when the answer needs the key store, merchant-service or an
     * operator token's signature check, so the caller must use {@link #authenticate}; an {@link ApiException} when
     * memory already decides a refusal (a key remembered as unknown, a cached key that is revoked or of the wrong
     * kind, a missing header).
     */
    public Optional<Identity> fromMemory(AuthMode mode, String method, MultiMap headers) {
        if (mode == AuthMode.OPERATOR) {
            return Optional.empty();
        }
        try {
            return Optional.of(authenticate(mode, method, headers, true));
        } catch (NotInMemory e) {
            return Optional.empty();
        }
    }

    private Identity authenticate(AuthMode mode, String method, MultiMap headers, boolean memoryOnly) {
        return switch (mode) {
            case PUBLIC -> Identity.ANONYMOUS;
            case OPERATOR -> operator(headers.get("Authorization"));
            case API_KEY -> apiKey(headers, method, memoryOnly);
            case API_KEY_AND_MID -> withMid(apiKey(headers, method, memoryOnly), headers, memoryOnly);
            case API_KEY_AND_ACCOUNT_HEADER -> withAccountHeader(apiKey(headers, method, memoryOnly), headers);
            case PUBLISHABLE -> publishable(headers.get(PUBLISHABLE_KEY_HEADER), memoryOnly);
            case PUBLISHABLE_OR_API_KEY_AND_MID -> headers.contains(PUBLISHABLE_KEY_HEADER)
                    ? publishable(headers.get(PUBLISHABLE_KEY_HEADER), memoryOnly)
                    : withMid(apiKey(headers, method, memoryOnly), headers, memoryOnly);
        };
    }

    /** Thrown where a memory-only answer would need to look further; no stack trace (it is control flow). */
    private static final class NotInMemory extends RuntimeException {
        private static final NotInMemory INSTANCE = new NotInMemory();

        private NotInMemory() {
            super(null, null, false, false);
        }
    }

    private Identity operator(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw ApiException.unauthorized("This endpoint needs an operator bearer token.");
        }
        JWTParser parser = operatorParser
                .orElseThrow(() -> ApiException.unauthorized("Operator access is not configured."));
        try {
            JsonWebToken token = parser.parse(authorization.substring(7).trim());
            if (token.getGroups() == null || !token.getGroups().contains(IdentityClaims.ROLE_OPERATOR)) {
                throw ApiException.forbidden("The token does not carry the operator group.");
            }
            return Identity.operator(token.getSubject());
        } catch (ParseException e) {
            throw ApiException.unauthorized("The operator token is invalid, expired, too long-lived or not issued for "
                    + "this API.");
        }
    }

    private Identity apiKey(MultiMap headers, String method, boolean memoryOnly) {
        String key = headers.get(API_KEY_HEADER);
        if (key == null || key.isBlank()) {
            throw ApiException.unauthorized(headers.contains(PUBLISHABLE_KEY_HEADER)
                    ? "This endpoint needs an API key (X-Api-Key), not a publishable key."
                    : "This endpoint needs an API key in X-Api-Key.");
        }
        Directory.KnownKey stored = activeKey(key.strip(), KeyState.TYPE_API, memoryOnly);
        if (IdentityClaims.ROLE_READ_ONLY.equals(stored.role()) && !"GET".equals(method) && !"HEAD".equals(method)) {
            throw ApiException.forbidden("A read_only key may only read.");
        }
        return new Identity(stored.keyId().toString(), KeyState.TYPE_API, stored.role(), stored.accountId(), null,
                null);
    }

    private Identity publishable(String header, boolean memoryOnly) {
        if (header == null || header.isBlank()) {
            throw ApiException.unauthorized("This endpoint needs a publishable key in X-Publishable-Key.");
        }
        String value = header.strip();
        int colon = value.indexOf(':');
        String key = colon < 0 ? value : value.substring(0, colon);
        String subMerchant = colon < 0 ? null : value.substring(colon + 1);
        if (subMerchant != null && subMerchant.isBlank()) {
            throw ApiException.unauthorized("The sub-merchant part of the publishable key is empty.");
        }
        Directory.KnownKey stored = activeKey(key, KeyState.TYPE_PUBLISHABLE, memoryOnly);
        UUID merchant = stored.merchantUUID();
        if (subMerchant != null) {
            UUID named = merchant(stored.accountId(), subMerchant, memoryOnly)
                    .orElseThrow(() -> ApiException.unauthorized("Unknown sub-merchant " + subMerchant + "."));
            if (stored.merchantUUID() != null && !stored.merchantUUID().equals(named)) {
                throw ApiException.forbidden("This publishable key is scoped to another merchant.");
            }
            merchant = named;
        }
        return new Identity(stored.keyId().toString(), KeyState.TYPE_PUBLISHABLE, IdentityClaims.ROLE_PUBLISHABLE,
                stored.accountId(), merchant, subMerchant);
    }

    private Directory.KnownKey activeKey(String key, String expectedType, boolean memoryOnly) {
        String hash = KeyHash.of(key);
        // docs/decisions.md §32: a key found nowhere a moment ago is refused without another lookup.
        Directory.KnownKey stored = null;
        if (!unknownKeys.isKnownUnknown(hash)) {
            if (memoryOnly) {
                stored = directory.cachedKey(hash).orElseThrow(() -> NotInMemory.INSTANCE);
            } else {
                long asked = System.nanoTime();
                stored = directory.key(hash).orElse(null);
                // only merchant-service's "no such key" makes it unknown; an outage is never remembered
                if (stored == null && !directory.keyLookupFailedSince(asked)) {
                    unknownKeys.remember(hash);
                }
            }
        }
        if (stored == null || stored.status() != KeyState.ACTIVE) {
            throw ApiException.unauthorized("The key is unknown or revoked.");
        }
        if (!expectedType.equals(stored.keyType())) {
            throw ApiException.unauthorized("This endpoint needs a key of type " + expectedType + ".");
        }
        return stored;
    }

    /**
     * The key is checked first: a wrong or missing key is a 401 whatever X-MID says. X-MID must name a
     * merchant of the key's account (by UUID or externalMID); one that does not is a 403, whether it exists
     * elsewhere or not, so nothing about other accounts leaks.
     */
    private Identity withMid(Identity identity, MultiMap headers, boolean memoryOnly) {
        String mid = headers.get(MID_HEADER);
        if (mid == null || mid.isBlank()) {
            throw ApiException.validation(MID_HEADER, "is required with an API key on this endpoint");
        }
        String reference = mid.strip();
        UUID merchant = merchant(identity.accountId(), reference, memoryOnly)
                .orElseThrow(() -> ApiException.forbidden("X-MID does not name a merchant of this key's account."));
        return new Identity(identity.subject(), identity.keyType(), identity.role(), identity.accountId(), merchant,
                reference);
    }

    /** A merchant the directory knows; memory only: the cached ones (an uncached one may still exist). */
    private Optional<UUID> merchant(UUID accountId, String reference, boolean memoryOnly) {
        if (!memoryOnly) {
            return directory.merchant(accountId, reference);
        }
        return Optional.of(directory.cachedMerchant(accountId, reference).orElseThrow(() -> NotInMemory.INSTANCE));
    }

    private static Identity withAccountHeader(Identity identity, MultiMap headers) {
        String account = headers.get(ACCOUNT_HEADER);
        if (account == null || account.isBlank()) {
            throw ApiException.validation(ACCOUNT_HEADER, "is required on this endpoint");
        }
        if (!account.strip().equalsIgnoreCase(identity.accountId().toString())) {
            throw ApiException.forbidden("X-Account-Id is not the key's account.");
        }
        return identity;
    }
}
