package dev.cryptopay.support.security;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.json.JsonString;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.crypto.SecretKey;
import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Verifies the gateway's identity token once per token rather than once per request (docs/decisions.md §79). The
 * gateway reuses an identity's token for half its lifetime, so a busy caller presents the same token string on request
 * after request, and each verification is an RSA signature check and two JSON parses (a quarter of what
 * transaction-service allocated under load; docs/performance.md, sixth step).
 *
 * <p>This is the {@link JWTParser} the Quarkus JWT validator uses (an alternative to SmallRye JWT's own, which it
 * wraps and which still does every check). A token it accepted is kept, keyed by the whole token string (a changed
 * byte, the signature's included, is another key and is verified afresh), until its expiry; a token it refused is
 * never kept. Expired tokens are swept out at a verification at most every {@link #SWEEP_EVERY_MILLIS} (the gateway
 * signs each identity a new token every 24 s of a 60 s lifetime, so the tokens it no longer presents are many: with
 * 200 merchants in use, 2,004 tokens were kept after the benchmark's runs, most of them expired, some 8 MB of heap;
 * docs/performance.md, forty-first step). At most {@link #MAX_KEPT} tokens are kept: when full, expired ones go, and
 * if none had expired all go.
 *
 * <p>Hand-rolled rather than a cache library: a map and an expiry per entry are the whole of it.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class VerifiedTokens implements JWTParser {

    /** At most this many verified tokens are kept (about 1.3 kB each): far more identities than a minute brings. */
    static final int MAX_KEPT = 4096;
    /** Expired tokens are swept out at most this often, at a verification (a token not kept yet). */
    static final long SWEEP_EVERY_MILLIS = 10_000;
    /** At most this many distinct claim names and values are shared between kept tokens (a few per identity). */
    static final int MAX_SHARED = 8192;
    /** Claims whose value each token has its own of, never worth sharing: the token's id and its string. */
    private static final Set<String> UNIQUE_PER_TOKEN = Set.of(Claims.jti.name(), Claims.raw_token.name());

    /**
     * A verified token as it is kept and answered: its string, its principal's name, its claims read once (by name; an
     * absent claim is not there) and when it expires. What SmallRye JWT's principal answers, without what it holds
     * besides (its parsed claims set and the payload's JSON, about 1.4 kB a token): a kept token outlives many young
     * collections, so it is promoted and stays in the old generation after its expiry until a full collection, and
     * the gateway signs every identity in use a new one every 24 s (docs/performance.md, forty-second step).
     */
    record Kept(String rawToken, String name, Map<String, Object> claims, long expiresAtMillis)
            implements JsonWebToken {

        @Override
        public String getName() {
            return name;
        }

        @Override
        public String getRawToken() {
            return rawToken;
        }

        @Override
        public Set<String> getClaimNames() {
            return claims.keySet();
        }

        /**
         * From the claims read when the token was verified. SmallRye JWT's principal looks every claim name up among
         * the standard ones first and, for the platform's own claims (account, merchant, key type), creates and
         * discards an exception each time (three to four per request, a stack trace each); reading them once per
         * token saves that.
         */
        @Override
        @SuppressWarnings("unchecked")
        public <T> T getClaim(String claimName) {
            return (T) (Claims.raw_token.name().equals(claimName) ? rawToken : claims.get(claimName));
        }

        @Override
        public String toString() { // not the token: a principal may be logged
            return "Kept[" + name + ", expires at " + expiresAtMillis + "]";
        }
    }

    private final JWTParser verifier;
    private final LongSupplier clockMillis;
    private final int maxKept;
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();
    /** Claim names and values that repeat from token to token, one instance each (see {@link #claimsOf}). */
    private final Map<Object, Object> sharedValues = new ConcurrentHashMap<>();
    private final AtomicLong verifications = new AtomicLong();
    private final AtomicLong nextSweepAtMillis = new AtomicLong();

    @Inject
    public VerifiedTokens(DefaultJWTParser verifier) {
        this(verifier, System::currentTimeMillis, MAX_KEPT);
    }

    /** With the parser that verifies, the clock expiries are read against (epoch milliseconds) and the bound. */
    VerifiedTokens(JWTParser verifier, LongSupplier clockMillis, int maxKept) {
        this.verifier = verifier;
        this.clockMillis = clockMillis;
        this.maxKept = maxKept;
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        long now = clockMillis.getAsLong();
        Kept hit = kept.get(token);
        if (hit != null) {
            if (now < hit.expiresAtMillis()) {
                return hit;
            }
            kept.remove(token);
        }
        JsonWebToken verified = verifier.parse(token);
        verifications.incrementAndGet();
        long expiresAt = verified.getExpirationTime() * 1000; // seconds since the epoch; 0 when absent: not kept
        if (expiresAt <= now) {
            return verified;
        }
        if (sweepDue(now) || kept.size() >= maxKept) {
            kept.values().removeIf(k -> now >= k.expiresAtMillis());
            if (kept.size() >= maxKept) {
                kept.clear();
            }
        }
        Kept fresh = new Kept(token, shared(verified.getName()), claimsOf(verified), expiresAt);
        kept.put(token, fresh);
        return fresh; // the same principal for the token's first request as for the next ones'
    }

    /** Whether the periodic sweep of expired tokens is due; the one caller that finds it due sets the next one. */
    private boolean sweepDue(long now) {
        long sweepAt = nextSweepAtMillis.get();
        return now >= sweepAt && nextSweepAtMillis.compareAndSet(sweepAt, now + SWEEP_EVERY_MILLIS);
    }

    /**
     * The token's claims, each name and each value that repeats from token to token (issuer, audience, groups, key
     * type, and an identity's subject, account and merchant) shared with the tokens kept before it: a token differs
     * from its identity's previous one only in its id, its times and its string. Parsed afresh, every token held some
     * 26 strings and four collections of its own, 1.7 kB beside its string (docs/performance.md, forty-third step).
     */
    private Map<String, Object> claimsOf(JsonWebToken token) {
        Map<String, Object> claims = new HashMap<>();
        for (String name : token.getClaimNames()) {
            Object value = token.getClaim(name);
            if (value != null) {
                claims.put(shared(name), UNIQUE_PER_TOKEN.contains(name) ? value : shared(value));
            }
        }
        return Map.copyOf(claims);
    }

    /**
     * The value kept earlier that equals this one, else this one (a set as an unmodifiable copy, as it is then shared).
     * Only immutable values are shared: strings, JSON strings and sets of strings; anything else is its token's own.
     */
    private Object shared(Object value) {
        if (value instanceof Set<?> set) {
            value = Set.copyOf(set);
        } else if (!(value instanceof String || value instanceof JsonString)) {
            return value;
        }
        if (sharedValues.size() >= MAX_SHARED) {
            sharedValues.clear(); // more distinct values than identities in use bring: start again
        }
        Object earlier = sharedValues.putIfAbsent(value, value);
        return earlier == null ? value : earlier;
    }

    private String shared(String name) {
        return (String) shared((Object) name);
    }

    /** How many tokens were verified (not answered from memory) since the start. */
    public long verifications() {
        return verifications.get();
    }

    /** How many verified tokens are kept now. */
    int kept() {
        return kept.size();
    }

    // Everything else is SmallRye JWT's, unchanged and never kept.

    @Override
    public JsonWebToken parse(String token, JWTAuthContextInfo context) throws ParseException {
        return verifier.parse(token, context);
    }

    @Override
    public JsonWebToken verify(String token, PublicKey key) throws ParseException {
        return verifier.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, SecretKey key) throws ParseException {
        return verifier.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, String secret) throws ParseException {
        return verifier.verify(token, secret);
    }

    @Override
    public JsonWebToken decrypt(String token, PrivateKey key) throws ParseException {
        return verifier.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, SecretKey key) throws ParseException {
        return verifier.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, String secret) throws ParseException {
        return verifier.decrypt(token, secret);
    }

    @Override
    public JsonWebToken parseOnly(String token) throws ParseException {
        return verifier.parseOnly(token);
    }
}
