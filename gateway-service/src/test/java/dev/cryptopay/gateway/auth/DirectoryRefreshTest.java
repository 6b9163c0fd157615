package dev.cryptopay.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.gateway.proxy.SeededKeys;
import dev.cryptopay.support.security.KeyHash;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The directory checks the views' version in the background while requests come (docs/decisions.md §82, §106): a key
 * or merchant stays in memory (so its requests stay on the event loop, §77), however rarely it is asked for, and
 * still shows a change of the view — what another replica's consumer writes there without evicting this replica's
 * entry — within the cache lifetime.
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

    /**
     * The two hundred merchants of issue #14's benchmark: each asked for about once a second, while the requests of all
     * of them keep the version checked. Each entry used to expire a second after it was read, so nearly every
     * request of such a merchant went to a worker and read the view.
     */
    @Test
    void aMerchantAskedForLessThanOnceALifetimeStaysInMemoryWhileNothingChanges() throws InterruptedException {
        String busy = "busy-shop-" + UUID.randomUUID();
        String rare = "rare-shop-" + UUID.randomUUID();
        seedMerchant(busy);
        UUID rareId = seedMerchant(rare);
        directory.merchant(ACCOUNT, busy).orElseThrow();
        assertEquals(Optional.of(rareId), directory.merchant(ACCOUNT, rare));
        long readsBefore = directory.rowReads();

        // the busy merchant every 50 ms, the rare one every one and a half lifetimes, three times
        Duration ttl = config.directoryCacheTtl();
        int rareMisses = 0;
        for (int round = 0; round < 3; round++) {
            long next = System.nanoTime() + ttl.multipliedBy(3).dividedBy(2).toNanos();
            while (System.nanoTime() < next) {
                directory.cachedMerchant(ACCOUNT, busy).or(() -> directory.merchant(ACCOUNT, busy)).orElseThrow();
                Thread.sleep(50);
            }
            rareMisses += directory.cachedMerchant(ACCOUNT, rare).isPresent() ? 0 : 1;
        }
        assertEquals(0, rareMisses, "the rarely asked merchant was missing from memory");
        assertEquals(readsBefore, directory.rowReads(), "a merchant's row was read again though nothing changed");
    }

    @Test
    void aChangeToARarelyAskedMerchantIsSeenWithinTheLifetime() throws InterruptedException {
        String mid = "moving-shop-" + UUID.randomUUID();
        UUID merchant = seedMerchant(mid);
        assertEquals(Optional.of(merchant), directory.merchant(ACCOUNT, mid));

        // Another replica consumed the change: the externalMID now names nothing; this replica was not told.
        long changedAt = System.nanoTime();
        QuarkusTransaction.requiringNew().run(() -> Panache.getEntityManager()
                .createNativeQuery("update gateway_merchant set external_mid = ?1 where merchant_id = ?2")
                .setParameter(1, mid + "-renamed").setParameter(2, merchant).executeUpdate());

        Duration ttl = config.directoryCacheTtl();
        Optional<UUID> seen = Optional.of(merchant);
        while (System.nanoTime() - changedAt < ttl.multipliedBy(3).toNanos()) {
            seen = directory.cachedMerchant(ACCOUNT, mid).or(() -> directory.merchant(ACCOUNT, mid));
            if (seen.isEmpty()) {
                break;
            }
            Thread.sleep(20);
        }
        long took = Duration.ofNanos(System.nanoTime() - changedAt).toMillis();
        assertEquals(Optional.empty(), seen, "the change was never seen");
        assertTrue(took <= ttl.toMillis() + 500, "the change took " + took + " ms to be seen");
    }

    /** The version moves with the commit of a change, not before it (what makes a stamped entry safe to keep). */
    @Test
    void theViewsVersionMovesAtTheCommitOfAChange() {
        UUID merchant = seedMerchant("versioned-shop-" + UUID.randomUUID());
        long before = version();
        long inside = QuarkusTransaction.requiringNew().call(() -> {
            Panache.getEntityManager().createNativeQuery("update gateway_merchant set status = 2 where merchant_id = ?1")
                    .setParameter(1, merchant).executeUpdate();
            return ((Number) Panache.getEntityManager()
                    .createNativeQuery("select version from directory_version where id = 1").getSingleResult())
                    .longValue();
        });
        assertEquals(before, inside, "the version moved before the change committed");
        assertTrue(version() > before, "the committed change left the version where it was");
    }

    private static long version() {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) Panache.getEntityManager()
                .createNativeQuery("select version from directory_version where id = 1").getSingleResult())
                .longValue());
    }
}
