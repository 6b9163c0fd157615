package dev.cryptopay.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.gateway.proxy.SeededKeys;
import dev.cryptopay.support.security.KeyHash;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The directory re-reads a key or merchant in use before its entry expires (docs/decisions.md §82): a busy key stays
 * in memory (so its requests stay on the event loop, §77) and still shows a change of the view — what another
 * replica's consumer writes there without evicting this replica's entry — within the cache lifetime.
 */
@QuarkusTest
class DirectoryRefreshTest {

    @Inject
    Directory directory;
    @Inject
    GatewayConfig config;

    private static final UUID ACCOUNT = UUID.randomUUID();

    private static String seedKey() {
        String key = "ak_refresh_" + UUID.randomUUID();
        SeededKeys.admin(ACCOUNT, key);
        return KeyHash.of(key);
    }

    private static UUID seedMerchant(String externalMid) {
        UUID id = UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> SeededKeys.merchant(id, ACCOUNT, externalMid));
        return id;
    }

    @Test
    void aKeyAndMerchantInUseNeverLeaveMemory() throws InterruptedException {
        String hash = seedKey();
        String mid = "refresh-shop-" + UUID.randomUUID();
        UUID merchant = seedMerchant(mid);
        assertTrue(directory.key(hash).isPresent());
        assertEquals(Optional.of(merchant), directory.merchant(ACCOUNT, mid));

        // Asked every 50 ms for three lifetimes: before this change each entry expired after one lifetime and the
        // next request found nothing in memory.
        Duration ttl = config.directoryCacheTtl();
        long end = System.nanoTime() + ttl.multipliedBy(3).toNanos();
        int keyMisses = 0;
        int merchantMisses = 0;
        while (System.nanoTime() < end) {
            keyMisses += directory.cachedKey(hash).isPresent() ? 0 : 1;
            merchantMisses += directory.cachedMerchant(ACCOUNT, mid).isPresent() ? 0 : 1;
            Thread.sleep(50);
        }
        assertEquals(0, keyMisses, "the key in use was missing from memory");
        assertEquals(0, merchantMisses, "the merchant in use was missing from memory");
    }

    @Test
    void aRevocationWrittenToTheViewIsSeenWithinTheLifetimeWithoutAnEviction() throws InterruptedException {
        String hash = seedKey();
        assertEquals(KeyState.ACTIVE, directory.key(hash).orElseThrow().status());

        // Another replica consumed the revocation: the shared view changes, this replica's cache is not evicted.
        long revokedAt = System.nanoTime();
        QuarkusTransaction.requiringNew().run(() -> {
            StoredKey stored = StoredKey.findById(hash);
            stored.status = KeyState.REVOKED;
        });

        Duration ttl = config.directoryCacheTtl();
        Integer seen = KeyState.ACTIVE;
        while (System.nanoTime() - revokedAt < ttl.multipliedBy(3).toNanos()) {
            // what a request asks: memory first, the view when memory has nothing
            seen = directory.cachedKey(hash).or(() -> directory.key(hash)).map(Directory.KnownKey::status).orElse(null);
            if (seen != null && seen == KeyState.REVOKED) {
                break;
            }
            Thread.sleep(20);
        }
        long took = Duration.ofNanos(System.nanoTime() - revokedAt).toMillis();
        assertEquals(KeyState.REVOKED, seen, "the revocation was never seen");
        // within the lifetime, plus room for one read of the view on a slow machine
        assertTrue(took <= ttl.toMillis() + 500, "the revocation took " + took + " ms to be seen");
    }
}
