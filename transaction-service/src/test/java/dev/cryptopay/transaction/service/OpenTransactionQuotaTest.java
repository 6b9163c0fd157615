package dev.cryptopay.transaction.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.transaction.domain.MerchantView;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The open-transaction quota's cost (docs/decisions.md §69): far below the limit, one exact count per merchant and
 * second stands for the creations that follow; near the limit every creation counts, so the limit holds exactly.
 */
@QuarkusTest
class OpenTransactionQuotaTest {

    /** application.properties (test profile): 3 open transactions per merchant for this account. */
    static final UUID SMALL_QUOTA_ACCOUNT = UUID.fromString("0b5e55ed-0000-4000-8000-000000000003");

    @Inject
    OpenTransactionQuota quota;
    @Inject
    EntityManager em;

    @Test
    void farBelowTheLimitOneCountPerSecondStandsForTheCreationsThatFollow() throws Exception {
        MerchantView merchant = merchant(UUID.randomUUID());
        long before = quota.counts();
        long started = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            QuarkusTransaction.requiringNew().run(() -> quota.checkRoomFor(merchant));
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        long counted = quota.counts() - before;
        assertTrue(counted >= 1 && counted <= 1 + seconds, counted + " counts for 20 creations in " + seconds + " s");

        // After a second the bound is stale: the next creation counts again.
        Thread.sleep(1100);
        long stale = quota.counts();
        QuarkusTransaction.requiringNew().run(() -> quota.checkRoomFor(merchant));
        assertEquals(stale + 1, quota.counts());
    }

    @Test
    void aStaleBoundIsRecountedByOneCreationWhileTheOthersAreAdmittedOnIt() {
        long second = OpenTransactionQuota.RECOUNT_AFTER_NANOS;
        OpenTransactionQuota.Bound bound = new OpenTransactionQuota.Bound(10, 0);
        assertTrue(bound.admits(second - 1, 5_000), "a fresh bound admits");
        assertFalse(bound.admits(second + 1, 5_000), "the first to find it stale counts again");
        assertTrue(bound.admits(second + 2, 5_000), "the others are admitted while that count runs");
        assertTrue(bound.admits(2 * second - 1, 5_000));
        assertFalse(bound.admits(2 * second, 5_000), "never on a bound two seconds old");
        assertFalse(new OpenTransactionQuota.Bound(10, 0).admits(0, 11), "never at half the limit");
        OpenTransactionQuota.Bound filling = new OpenTransactionQuota.Bound(4_980, 0);
        assertFalse(filling.admits(second + 1, 5_000), "takes on the recount");
        filling.admittedSince().addAndGet(20);
        assertFalse(filling.admits(second + 2, 5_000),
                "nor, while that count runs, once the creations admitted since reach half the limit");
    }

    @Test
    void nearTheLimitEveryCreationCountsAndTheLimitHolds() {
        MerchantView merchant = merchant(SMALL_QUOTA_ACCOUNT);
        UUID merchantId = merchant.merchantId;
        for (int open = 0; open < 3; open++) {
            long before = quota.counts();
            QuarkusTransaction.requiringNew().run(() -> quota.checkRoomFor(merchant));
            assertTrue(quota.counts() - before >= 1, "a merchant near its limit is counted on every creation");
            insertOpenTransaction(merchantId);
        }
        ApiException refused = assertThrows(ApiException.class,
                () -> QuarkusTransaction.requiringNew().run(() -> quota.checkRoomFor(merchant)));
        assertEquals("limit_reached", refused.code());
    }

    private static MerchantView merchant(UUID accountId) {
        MerchantView merchant = new MerchantView();
        merchant.merchantId = UUID.randomUUID();
        merchant.accountId = accountId;
        return merchant;
    }

    /** An open transaction (status 0) of the merchant, as a creation commits it. */
    private void insertOpenTransaction(UUID merchantId) {
        QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery("""
                insert into transaction (id, account_id, merchant_id, external_mid, descriptor, status, payment_status,
                  currency, total_local, total_usd, received_usd, customer_fee_usd, fx_rate_to_usd, fx_rate_source,
                  requested_asset, requested_network, required_fields, created_at, updated_at, expiration)
                values (gen_random_uuid(), :account, :merchant, 'quota-test', 'Quota Test', 0, 0, 'USD', 10, 10, 0, 0,
                  1, 'provider', 'BTC', 'bitcoin', '[]', :now, :now, :expires)""")
                .setParameter("account", SMALL_QUOTA_ACCOUNT).setParameter("merchant", merchantId)
                .setParameter("now", OffsetDateTime.now()).setParameter("expires", OffsetDateTime.now().plusMinutes(15))
                .executeUpdate());
    }
}
