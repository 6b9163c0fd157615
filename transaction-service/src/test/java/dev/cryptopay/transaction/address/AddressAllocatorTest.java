package dev.cryptopay.transaction.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Address indexes (docs/decisions.md §56, §57): never handed out twice, no lock held until the creation commits. */
@QuarkusTest
class AddressAllocatorTest {

    @Inject
    AddressAllocator allocator;

    @Inject
    AddressGapMetrics gaps;

    @Inject
    EntityManager em;

    private static String freshXpub() {
        return "xpub-test-" + UUID.randomUUID();
    }

    @Test
    void anOpenCreationDoesNotHoldUpTheNextOneForTheSameXpub() throws Exception {
        String xpub = freshXpub();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                // The creation's transaction has written (so it holds its connection and locks) and took an index...
                em.createNativeQuery("select 1").getSingleResult();
                assertEquals(0L, allocator.nextIndex(xpub));
                // ...and while it is still open, another creation for the same xpub gets the next index at once.
                Future<Long> next = other.submit(() -> QuarkusTransaction.requiringNew().call(() -> allocator.nextIndex(xpub)));
                try {
                    assertEquals(1L, (long) next.get(5, TimeUnit.SECONDS));
                } catch (Exception e) {
                    throw new AssertionError("the second creation waited for the first one's commit", e);
                }
            });
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void aRolledBackCreationLeavesAGapAndItsIndexIsNeverHandedOutAgain() {
        String xpub = freshXpub();
        assertEquals(0L, (long) QuarkusTransaction.requiringNew().call(() -> allocator.nextIndex(xpub)));
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                assertEquals(1L, allocator.nextIndex(xpub));
                throw new IllegalStateException("the creation fails after taking its index");
            });
        } catch (IllegalStateException expected) {
            // rolled back
        }
        assertEquals(2L, (long) QuarkusTransaction.requiringNew().call(() -> allocator.nextIndex(xpub)),
                "index 1 was handed to a creation that rolled back: it stays a gap, never reused");
    }

    @Test
    void concurrentCreationsGetDistinctConsecutiveIndexes() throws Exception {
        String xpub = freshXpub();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<CompletableFuture<Long>> calls = IntStream.range(0, 200)
                    .mapToObj(i -> CompletableFuture.supplyAsync(
                            () -> QuarkusTransaction.requiringNew().call(() -> allocator.nextIndex(xpub)), pool))
                    .toList();
            Set<Long> indexes = new TreeSet<>();
            for (CompletableFuture<Long> call : calls) {
                indexes.add(call.get(30, TimeUnit.SECONDS));
            }
            assertEquals(LongStream.range(0, 200).boxed().toList(), List.copyOf(indexes));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theGaugeCountsTheIndexesIssuedAfterTheLastFundedOne() {
        String xpub = freshXpub();
        UUID[] requests = new UUID[6];
        for (int i = 0; i < requests.length; i++) {
            long index = allocator.nextIndex(xpub);
            requests[i] = QuarkusTransaction.requiringNew().call(() -> request(xpub, index));
        }
        String fingerprint = AddressGapMetrics.fingerprint(xpub);
        gaps.refresh();
        assertEquals(6L, gaps.run(fingerprint), "nothing funded yet: every issued index counts");

        QuarkusTransaction.requiringNew().run(() -> transfer(requests[2], 0)); // index 2 funded
        QuarkusTransaction.requiringNew().run(() -> transfer(requests[4], -1)); // index 4: dropped in a reorg
        gaps.refresh();
        assertEquals(3L, gaps.run(fingerprint), "indexes 3, 4 (dropped transfer) and 5 follow the last funded one");

        QuarkusTransaction.requiringNew().run(() -> transfer(requests[5], 1));
        gaps.refresh();
        assertEquals(0L, gaps.run(fingerprint));
        assertTrue(fingerprint.matches("[0-9a-f]{16}"));
    }

    private UUID request(String xpub, long index) {
        UUID tx = UUID.randomUUID();
        UUID request = UUID.randomUUID();
        em.createNativeQuery("""
                insert into transaction (id, account_id, merchant_id, status, payment_status, currency, total_local,
                    total_usd, fx_rate_to_usd, fx_rate_source, requested_asset, requested_network, created_at,
                    updated_at, expiration)
                values (?1, ?2, ?2, 0, 0, 'USD', 10, 10, 1, 'provider', 'USDC', 'base', now(), now(), now())""")
                .setParameter(1, tx).setParameter(2, UUID.randomUUID()).executeUpdate();
        em.createNativeQuery("""
                insert into payment_request (id, transaction_id, crypto_asset, crypto_network, address, xpub,
                    derivation_index, expected_crypto, expected_usd, crypto_fx_rate, status, qr_data, expiration,
                    created_at)
                values (?1, ?2, 'USDC', 'base', ?3, ?4, ?5, 10, 10, 1, 0, 'test', now(), now())""")
                .setParameter(1, request).setParameter(2, tx).setParameter(3, "0xtest" + request)
                .setParameter(4, xpub).setParameter(5, index).executeUpdate();
        return request;
    }

    private void transfer(UUID request, int status) {
        em.createNativeQuery("""
                insert into payment_transfer (id, payment_request_id, transaction_id, network, txn_hash, position,
                    asset, amount, status, detected_at)
                select ?1, pr.id, pr.transaction_id, 'base', ?2, 0, 'USDC', 1, ?3, now()
                from payment_request pr where pr.id = ?4""")
                .setParameter(1, UUID.randomUUID()).setParameter(2, "0xhash" + UUID.randomUUID())
                .setParameter(3, status).setParameter(4, request).executeUpdate();
    }
}
