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
import java.nio.ByteBuffer;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.HashSet;
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
 * wraps and which still does every check). A token it accepted is kept, keyed by the SHA-256 digest of the whole token
 * string (a changed byte, the signature's included, is another key and is verified afresh; answering a forged string
 * from memory would take a second preimage of SHA-256), until its expiry; a token it refused is never kept. The string
 * itself is not kept: each request's principal is the kept token with the string that request presented. Expired
 * tokens are swept out at a verification at most every {@link #SWEEP_EVERY_MILLIS} (the gateway signs each identity a
 * new token every 24 s of a 60 s lifetime, so the tokens it no longer presents are many: with 200 merchants in use,
 * 2,004 tokens were kept after the benchmark's runs, most of them expired; docs/performance.md, forty-first step). At
 * most {@link #MAX_KEPT} tokens are kept: when full, expired ones go, and if none had expired all go.
 *
 * <p>Hand-rolled rather than a cache library: a map and an expiry per entry are the whole of it.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class VerifiedTokens implements JWTParser {

    /** At most this many verified tokens are kept (about 0.3 kB each): far more identities than a minute brings. */
    static final int MAX_KEPT = 4096;
    /** Expired tokens are swept out at most this often, at a verification (a token not kept yet). */
    static final long SWEEP_EVERY_MILLIS = 10_000;
    /** At most this many distinct claim names, values and identities are shared between kept tokens. */
    static final int MAX_SHARED = 8192;
    /**
     * Claims each token has its own value of (its id and its times); every other claim is its identity's, the same in
     * each token the gateway signs for that identity. The token's string ({@code raw_token}) is the request's.
     */
    private static final Set<String> OWN_PER_TOKEN = Set.of(Claims.jti.name(), Claims.iat.name(), Claims.exp.name(),
            Claims.nbf.name(), Claims.auth_time.name());

    /**
     * A verified token as it is kept: its principal's name, its identity's claims (one instance shared by every kept
     * token with the same ones), its own claims (id and times), read once by name (an absent claim is not there), and
     * when it expires. Neither SmallRye JWT's principal (its parsed claims set and the payload's JSON) nor the token's
     * string is kept: a kept token outlives many young collections, so it is promoted and stays in the old generation
     * after its expiry until a full collection, and the gateway signs every identity in use a new one every 24 s. Kept
     * as SmallRye parses it, a token took about 6 kB of the old generation; with its identity's claims shared and its
     * string beside it, 1.2 kB (most of it the string); as kept now, about 0.3 kB (docs/performance.md, forty-second
     * to forty-fourth steps).
     */
    record Kept(String name, Map<String, Object> identity, Map<String, Object> own, long expiresAtMillis) {

        Object claim(String claimName) {
            Object value = own.get(claimName);
            return value != null ? value : identity.get(claimName);
        }

        @Override
        public String toString() {
            return "Kept[" + name + ", expires at " + expiresAtMillis + "]";
        }
    }

    /**
     * What a request's principal is: a kept token and the string the request presented (whose digest found it). It
     * answers what SmallRye JWT's principal answers for the token, from the claims read when it was verified. SmallRye
     * JWT's principal looks every claim name up among the standard ones first and, for the platform's own claims
     * (account, merchant, key type), creates and discards an exception each time (three to four per request, a stack
     * trace each); reading them once per token saves that.
     */
    record Presented(String rawToken, Kept kept) implements JsonWebToken {

        @Override
        public String getName() {
            return kept.name();
        }

        @Override
        public String getRawToken() {
            return rawToken;
        }

        @Override
        public Set<String> getClaimNames() {
            Set<String> names = new HashSet<>(kept.identity().keySet());
            names.addAll(kept.own().keySet());
            names.add(Claims.raw_token.name());
            return names;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T getClaim(String claimName) {
            return (T) (Claims.raw_token.name().equals(claimName) ? rawToken : kept.claim(claimName));
        }

        @Override
        public String toString() { // not the token: a principal may be logged
            return "Token[" + kept.name() + ", expires at " + kept.expiresAtMillis() + "]";
        }
    }

    /** The SHA-256 digest of a token's string, the key it is kept under (32 bytes instead of the string's 0.8 kB). */
    record Digest(long first, long second, long third, long fourth) {

        static Digest of(String token) {
            ByteBuffer words = ByteBuffer.wrap(KeyHash.sha256(token));
            return new Digest(words.getLong(), words.getLong(), words.getLong(), words.getLong());
        }
    }

    private final JWTParser verifier;
    private final LongSupplier clockMillis;
    private final int maxKept;
    private final Map<Digest, Kept> kept = new ConcurrentHashMap<>();
    /** Claim names, values and identities that repeat from token to token, one instance each ({@link #keep}). */
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
        Digest key = Digest.of(token);
        Kept hit = kept.get(key);
        if (hit != null) {
            if (now < hit.expiresAtMillis()) {
                return new Presented(token, hit);
            }
            kept.remove(key);
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
        Kept fresh = keep(verified, expiresAt);
        kept.put(key, fresh);
        return new Presented(token, fresh); // the same kind of principal for the token's first request as for the next
    }

    /** Whether the periodic sweep of expired tokens is due; the one caller that finds it due sets the next one. */
    private boolean sweepDue(long now) {
        long sweepAt = nextSweepAtMillis.get();
        return now >= sweepAt && nextSweepAtMillis.compareAndSet(sweepAt, now + SWEEP_EVERY_MILLIS);
    }

    /**
     * The token's claims as kept: its own (id and times) apart, and its identity's, each name and each value that
     * repeats from token to token (issuer, audience, groups, key type, and an identity's subject, account and merchant)
     * and the identity's claims as a whole shared with the tokens kept before it: a token differs from its identity's
     * previous one only in its id, its times and its string. Parsed afresh, every token held some 26 strings and four
     * collections of its own, 1.7 kB beside its string (docs/performance.md, forty-third step).
     */
    private Kept keep(JsonWebToken token, long expiresAtMillis) {
        Map<String, Object> identity = new HashMap<>();
        Map<String, Object> own = new HashMap<>();
        for (String name : token.getClaimNames()) {
            if (Claims.raw_token.name().equals(name)) {
                continue; // the string is each request's own (Presented)
            }
            Object value = token.getClaim(name);
            if (value == null) {
                continue;
            }
            if (OWN_PER_TOKEN.contains(name)) {
                own.put(shared(name), value);
            } else {
                identity.put(shared(name), shared(value));
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> sharedIdentity = (Map<String, Object>) shared(Map.copyOf(identity));
        return new Kept(shared(token.getName()), sharedIdentity, Map.copyOf(own), expiresAtMillis);
    }

    /**
     * The value kept earlier that equals this one, else this one (a set as an unmodifiable copy, as it is then shared).
     * Only immutable values are shared: strings, JSON strings, sets of strings and the unmodifiable maps of an
     * identity's claims ({@link #keep}); anything else is its token's own.
     */
    private Object shared(Object value) {
        if (value instanceof Set<?> set) {
            value = Set.copyOf(set);
        } else if (!(value instanceof String || value instanceof JsonString || value instanceof Map<?, ?>)) {
            return value;
        }
        if (sharedValues.size() >= MAX_SHARED) {
            sharedValues.clear(); // more distinct values than identities in use bring: start again
        }
        Object earlier = sharedValues.putIfAbsent(value, value);
        return earlier == null ? value : earlier;
    }

    private String shared(String name) {
        return name == null ? null : (String) shared((Object) name);
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
