package dev.cryptopay.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.gateway.routing.AuthMode;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.KeyHash;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.MultiMap;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The event-loop admission (docs/decisions.md §77): {@link Authenticator#fromMemory} answers only from what the
 * directory's caches hold, decides exactly as {@link Authenticator#authenticate} does, and hands back to it whatever
 * needs the key store (an uncached key or merchant, an evicted key, an operator token).
 */
@QuarkusTest
class AuthenticatorMemoryTest {

    @Inject
    Authenticator authenticator;
    @Inject
    Directory directory;
    @Inject
    UnknownKeys unknownKeys;
    @Inject
    TokenMinter minter;

    private static final UUID ACCOUNT = UUID.randomUUID();
    private static final UUID MERCHANT = UUID.randomUUID();

    private static MultiMap headers(String... pairs) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.add(pairs[i], pairs[i + 1]);
        }
        return headers;
    }

    private static String seed(String role) {
        String key = "ak_" + role + "_" + UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> {
            StoredKey stored = new StoredKey();
            stored.keyHash = KeyHash.of(key);
            stored.keyId = UUID.randomUUID();
            stored.accountId = ACCOUNT;
            stored.keyType = "api";
            stored.role = role;
            stored.status = 1;
            stored.version = 1;
            stored.updatedAt = OffsetDateTime.now();
            stored.persist();
            if (StoredMerchant.findById(MERCHANT) == null) {
                StoredMerchant merchant = new StoredMerchant();
                merchant.merchantId = MERCHANT;
                merchant.accountId = ACCOUNT;
                merchant.externalMID = "memory-shop";
                merchant.status = 1;
                merchant.version = 1;
                merchant.updatedAt = OffsetDateTime.now();
                merchant.persist();
            }
        });
        return key;
    }

    @Test
    void aKeyTheCachesHoldIsAdmittedFromMemoryAsTheKeyStoreWouldAdmitIt() {
        String key = seed("admin");
        MultiMap headers = headers("X-Api-Key", key, "X-MID", "memory-shop");
        assertEquals(Optional.empty(), authenticator.fromMemory(AuthMode.API_KEY_AND_MID, "GET", headers),
                "a key never used on this replica needs the key store");

        // The blocking path reads the views and fills the caches (kept for directory-cache-ttl, 1 s); right after it,
        // memory answers the same caller. Tried a few times in case a slow machine let the second read miss the TTL.
        boolean answered = false;
        for (int i = 0; i < 5 && !answered; i++) {
            Identity stored = authenticator.authenticate(AuthMode.API_KEY_AND_MID, "GET", headers);
            Optional<Identity> remembered = authenticator.fromMemory(AuthMode.API_KEY_AND_MID, "GET", headers);
            if (remembered.isPresent()) {
                assertEquals(stored, remembered.get());
                assertEquals(MERCHANT, remembered.get().merchantId());
                answered = true;
            }
        }
        assertTrue(answered, "memory answered a key just read from the store");

        // An evicted key (what the keys consumer does on a revocation) goes back to the key store.
        directory.evictKey(KeyHash.of(key));
        assertEquals(Optional.empty(), authenticator.fromMemory(AuthMode.API_KEY_AND_MID, "GET", headers));
    }

    @Test
    void refusalsMemoryCanDecideAreTheSameRefusals() {
        String readOnly = seed("read_only");
        MultiMap headers = headers("X-Api-Key", readOnly);
        authenticator.authenticate(AuthMode.API_KEY, "GET", headers);
        ApiException refused = assertThrows(ApiException.class,
                () -> authenticator.fromMemory(AuthMode.API_KEY, "POST", headers).orElseThrow(
                        () -> new AssertionError("cache expired before the check; rerun")));
        assertEquals(403, refused.status());

        String unknown = "ak_unknown_" + UUID.randomUUID();
        unknownKeys.remember(KeyHash.of(unknown));
        ApiException unauthorized = assertThrows(ApiException.class,
                () -> authenticator.fromMemory(AuthMode.API_KEY, "GET", headers("X-Api-Key", unknown)));
        assertEquals(401, unauthorized.status());

        ApiException missing = assertThrows(ApiException.class,
                () -> authenticator.fromMemory(AuthMode.API_KEY, "GET", headers()));
        assertEquals(401, missing.status());
    }

    @Test
    void operatorTokensAreNeverCheckedOnTheEventLoop() {
        assertEquals(Optional.empty(), authenticator.fromMemory(AuthMode.OPERATOR, "GET",
                headers("Authorization", "Bearer x.y.z")));
    }

    @Test
    void aTokenIsReusedFromMemoryOnlyOnceMinted() {
        Identity identity = new Identity(UUID.randomUUID().toString(), "api", "admin", ACCOUNT, null, null);
        assertEquals(Optional.empty(), minter.recentTokenFor(identity));
        String token = minter.tokenFor(identity);
        assertEquals(Optional.of(token), minter.recentTokenFor(identity));
    }
}
