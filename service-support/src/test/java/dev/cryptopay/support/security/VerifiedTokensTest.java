package dev.cryptopay.support.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.TestTokens;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.jwt.util.KeyUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The identity token is verified once and then answered from memory until its expiry, and nothing else is. */
class VerifiedTokensTest {

    private final AtomicLong clock = new AtomicLong(System.currentTimeMillis());
    private VerifiedTokens tokens;

    @BeforeEach
    void verifierAsEveryServiceHasIt() throws Exception {
        tokens = new VerifiedTokens(new DefaultJWTParser(info()), clock::get, 3);
    }

    private static JWTAuthContextInfo info() throws Exception {
        String pem = Files.readString(Path.of(TestTokens.key()).resolveSibling("local-dev-internal-public.pem"));
        JWTAuthContextInfo info = new JWTAuthContextInfo(KeyUtils.decodePublicKey(pem), IdentityClaims.ISSUER);
        info.setExpectedAudience(Set.of(IdentityClaims.AUDIENCE));
        return info;
    }

    @Test
    void aTokenIsVerifiedOnceThenAnsweredFromMemory() throws Exception {
        UUID account = UUID.randomUUID();
        String token = TestTokens.admin(account);
        JsonWebToken first = tokens.parse(token);
        assertEquals(account.toString(), first.getClaim(IdentityClaims.ACCOUNT));
        assertEquals(Set.of(IdentityClaims.ROLE_ADMIN), first.getGroups());
        clock.addAndGet(30_000);
        JsonWebToken again = tokens.parse(token);
        assertSame(kept(first), kept(again), "the second request is answered from the token kept at the first");
        assertEquals(token, again.getRawToken(), "each request's principal carries the string that request presented");
        assertEquals(1, tokens.verifications());
    }

    private static VerifiedTokens.Kept kept(JsonWebToken principal) {
        assertTrue(principal instanceof VerifiedTokens.Presented, "what a request gets: " + principal.getClass());
        return ((VerifiedTokens.Presented) principal).kept();
    }

    @Test
    void tokensAreKeptUnderTheirSha256Digest() {
        // FIPS 180-2, appendix B.1: SHA-256("abc")
        assertEquals(new VerifiedTokens.Digest(0xba7816bf8f01cfeaL, 0x414140de5dae2223L, 0xb00361a396177a9cL,
                0xb410ff61f20015adL), VerifiedTokens.Digest.of("abc"));
        assertNotEquals(VerifiedTokens.Digest.of("abc"), VerifiedTokens.Digest.of("abd"));
    }

    @Test
    void claimsOfAKeptTokenAreReadOnceAndAnswerAsTheTokenDoes() throws Exception {
        UUID account = UUID.randomUUID();
        String token = TestTokens.claims("ak-1", "api", IdentityClaims.ROLE_ADMIN, account)
                .claim(IdentityClaims.MERCHANT_REF, "shop-7").sign(TestTokens.key());
        JsonWebToken jwt = tokens.parse(token);
        JsonWebToken smallRyes = new DefaultJWTParser(info()).parse(token);
        for (String name : new String[] {IdentityClaims.ACCOUNT, IdentityClaims.KEY_TYPE, IdentityClaims.MERCHANT_REF,
                IdentityClaims.MERCHANT, "sub"}) {
            assertEquals(String.valueOf((Object) smallRyes.getClaim(name)), String.valueOf((Object) jwt.getClaim(name)),
                    name);
        }
        assertEquals(null, (Object) jwt.getClaim(IdentityClaims.MERCHANT), "a claim the token lacks");
        assertEquals(account.toString(), String.valueOf((Object) jwt.getClaim(IdentityClaims.ACCOUNT)));
    }

    @Test
    void aKeptTokenAnswersAsSmallRyesPrincipalDoes() throws Exception {
        UUID account = UUID.randomUUID();
        String token = TestTokens.claims("ak-2", "publishable", IdentityClaims.ROLE_ADMIN, account)
                .claim(IdentityClaims.MERCHANT, UUID.randomUUID().toString()).sign(TestTokens.key());
        JsonWebToken kept = tokens.parse(token);
        JsonWebToken smallRyes = new DefaultJWTParser(info()).parse(token);
        kept(kept);
        assertEquals(smallRyes.getName(), kept.getName());
        assertEquals(smallRyes.getSubject(), kept.getSubject());
        assertEquals(smallRyes.getGroups(), kept.getGroups());
        assertEquals(smallRyes.getIssuer(), kept.getIssuer());
        assertEquals(smallRyes.getAudience(), kept.getAudience());
        assertEquals(smallRyes.getExpirationTime(), kept.getExpirationTime());
        assertEquals(smallRyes.getIssuedAtTime(), kept.getIssuedAtTime());
        assertEquals(token, kept.getRawToken());
        assertEquals(token, kept.getClaim("raw_token"));
        for (String name : smallRyes.getClaimNames()) {
            if (smallRyes.getClaim(name) != null) {
                assertEquals((Object) smallRyes.getClaim(name), kept.getClaim(name), name);
                assertTrue(kept.containsClaim(name), name);
            }
        }
        assertEquals(null, (Object) kept.getClaim(IdentityClaims.MERCHANT_REF), "a claim the token lacks");
        assertTrue(!kept.toString().contains(token), "the token's string is not in what a log line of it shows");
    }

    @Test
    void claimValuesThatRepeatFromTokenToTokenAreKeptOnceAndCannotBeChanged() throws Exception {
        UUID account = UUID.randomUUID();
        UUID otherAccount = UUID.randomUUID();
        JsonWebToken first = tokens.parse(TestTokens.claims("ak-3", "api", IdentityClaims.ROLE_ADMIN, account)
                .sign(TestTokens.key()));
        JsonWebToken next = tokens.parse(TestTokens.claims("ak-3", "api", IdentityClaims.ROLE_ADMIN, account)
                .sign(TestTokens.key()));
        JsonWebToken other = tokens.parse(TestTokens.claims("ak-4", "api", IdentityClaims.ROLE_READ_ONLY,
                otherAccount).sign(TestTokens.key()));
        assertEquals(3, tokens.verifications(), "three tokens, each verified");
        assertNotEquals(first.getRawToken(), next.getRawToken());
        assertNotEquals(first.getTokenID(), next.getTokenID(), "each token keeps its own id");

        assertSame((Object) first.getClaim(IdentityClaims.ACCOUNT), next.getClaim(IdentityClaims.ACCOUNT));
        assertSame(first.getSubject(), next.getSubject());
        assertSame(first.getName(), next.getName());
        assertSame(first.getGroups(), next.getGroups());
        assertSame(first.getIssuer(), other.getIssuer());
        assertSame(first.getAudience(), other.getAudience());
        assertSame(kept(first).identity(), kept(next).identity(), "one identity's claims are kept once for its tokens");
        assertNotEquals(kept(first).own(), kept(next).own(), "each token keeps its own id and times");
        for (var component : VerifiedTokens.Kept.class.getRecordComponents()) {
            Object value = component.getAccessor().invoke(kept(first));
            assertTrue(!first.getRawToken().equals(value)
                    && !(value instanceof Map<?, ?> map && map.containsValue(first.getRawToken())),
                    "the token's string is not kept (" + component.getName() + ")");
        }

        assertEquals(account.toString(), String.valueOf((Object) first.getClaim(IdentityClaims.ACCOUNT)));
        assertEquals(otherAccount.toString(), String.valueOf((Object) other.getClaim(IdentityClaims.ACCOUNT)));
        assertEquals("ak-4", other.getSubject());
        assertEquals(Set.of(IdentityClaims.ROLE_ADMIN), next.getGroups());
        assertEquals(Set.of(IdentityClaims.ROLE_READ_ONLY), other.getGroups());
        assertThrows(UnsupportedOperationException.class, () -> first.getGroups().add(IdentityClaims.ROLE_OPERATOR),
                "a shared set cannot be changed through one token");
        assertEquals(Set.of(IdentityClaims.ROLE_ADMIN), next.getGroups());
    }

    @Test
    void aChangedSignatureIsRefusedWhileTheGenuineTokenIsKept() throws Exception {
        String token = TestTokens.admin(UUID.randomUUID());
        tokens.parse(token);
        int last = token.length() - 2; // inside the signature (the final character may carry spare bits only)
        String forged = token.substring(0, last) + (token.charAt(last) == 'A' ? 'B' : 'A') + token.charAt(last + 1);
        assertThrows(ParseException.class, () -> tokens.parse(forged));
        String otherClaims = TestTokens.admin(UUID.randomUUID());
        String spliced = token.substring(0, token.lastIndexOf('.'))
                + otherClaims.substring(otherClaims.lastIndexOf('.'));
        assertThrows(ParseException.class, () -> tokens.parse(spliced));
        assertEquals(1, tokens.kept(), "only the genuine token is kept");
    }

    @Test
    void aKeptTokenIsVerifiedAgainOnceItsExpiryHasPassed() throws Exception {
        String token = TestTokens.admin(UUID.randomUUID());
        JsonWebToken first = tokens.parse(token);
        clock.set(first.getExpirationTime() * 1000 + 1); // past exp by this clock; SmallRye's own clock still accepts
        tokens.parse(token);
        assertEquals(2, tokens.verifications());
        assertEquals(0, tokens.kept(), "a token past its expiry is not kept again");
    }

    @Test
    void anExpiredTokenIsRefusedAndNeverKept() {
        assertThrows(ParseException.class, () -> tokens.parse(TestTokens.expired(UUID.randomUUID())));
        assertThrows(ParseException.class, () -> tokens.parse("not.a.token"));
        assertEquals(0, tokens.kept());
        assertEquals(0, tokens.verifications());
    }

    @Test
    void expiredTokensAreSweptOutAtAVerificationWithoutWaitingForTheBound() throws Exception {
        VerifiedTokens roomy = new VerifiedTokens(new DefaultJWTParser(info()), clock::get, 100);
        long start = clock.get();
        JsonWebToken first = roomy.parse(TestTokens.admin(UUID.randomUUID())); // expires in 60 s
        JsonWebToken second = roomy.parse(TestTokens.admin(UUID.randomUUID()));
        assertEquals(2, roomy.kept());

        String longer = TestTokens.claims("bench", "api", IdentityClaims.ROLE_ADMIN, UUID.randomUUID())
                .expiresIn(600).sign(TestTokens.key());
        // The first two expired by this clock (signed across a second's boundary, the second expires a second later).
        clock.set(Math.max(first.getExpirationTime(), second.getExpirationTime()) * 1000 + 1);
        roomy.parse(longer);
        assertEquals(1, roomy.kept(), "the two expired tokens went at the next verification; the new one is kept");

        String another = TestTokens.claims("bench", "api", IdentityClaims.ROLE_ADMIN, UUID.randomUUID())
                .expiresIn(900).sign(TestTokens.key());
        clock.set(start + 300_000); // the 600 s token still valid
        roomy.parse(longer);
        roomy.parse(another);
        assertEquals(2, roomy.kept(), "a token still valid stays");
        assertEquals(4, roomy.verifications(), "the kept token was answered from memory");
    }

    @Test
    void aSweepRunsAtMostOncePerInterval() throws Exception {
        VerifiedTokens roomy = new VerifiedTokens(new DefaultJWTParser(info()), clock::get, 100);
        String shortLived = TestTokens.claims("bench", "api", IdentityClaims.ROLE_ADMIN, UUID.randomUUID())
                .expiresIn(5).sign(TestTokens.key());
        roomy.parse(shortLived); // the first verification sweeps (nothing to sweep) and sets the next sweep 10 s on
        clock.addAndGet(6_000); // expired, but the next sweep is 4 s away
        roomy.parse(TestTokens.admin(UUID.randomUUID()));
        assertEquals(2, roomy.kept(), "no sweep within the interval");
        clock.addAndGet(VerifiedTokens.SWEEP_EVERY_MILLIS);
        roomy.parse(TestTokens.admin(UUID.randomUUID()));
        assertEquals(2, roomy.kept(), "the expired token went at the first verification after the interval");
    }

    @Test
    void atMostTheBoundIsKept() throws Exception {
        for (int i = 0; i < 7; i++) {
            tokens.parse(TestTokens.admin(UUID.randomUUID()));
            assertTrue(tokens.kept() <= 3, "kept " + tokens.kept());
        }
        assertEquals(7, tokens.verifications());
    }
}
