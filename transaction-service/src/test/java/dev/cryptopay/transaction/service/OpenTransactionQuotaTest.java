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
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The open-transaction quota's cost (docs/decisions.md §69, §97): far below the limit, one exact count per merchant
 * stands for the creations that follow, for as long as the account could not open the room left (one to ten
 * seconds); near the limit every creation counts, so the limit holds exactly.
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
    void farBelowTheLimitACountStandsWhileTheAccountCouldNotOpenTheRoomLeft() throws Exception {
        // An account with the defaults: 10,000 open per merchant (half: 5,000), 200 requests a second and a burst of
        // 400 on each of 6 gateway replicas.
        MerchantView merchant = merchant(UUID.randomUUID());
        long before = quota.counts();
        long started = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            QuarkusTransaction.requiringNew().run(() -> quota.checkRoomFor(merchant));
        }
        assertEquals(before + 1, quota.counts(), "the first creation counts, the next 19 are admitted on its count");

        // 20 admitted leave 4,980 below half the limit: the account needs (4,980 / 6 - 400) / 200 = 2.15 s for them.
        long stands = quota.standsForNanos(merchant.accountId, 4_980);
        assertEquals(2_150_000_000L, stands, 1_000_000L);
        sleepUntil(started + 1_100_000_000L);
        QuarkusTransaction.requiringNew().run(() -> quota.checkRoomFor(merchant));
        assertEquals(before + 1, quota.counts(), "a count older than a second still stands while the room allows");

        sleepUntil(started + stands + 50_000_000L);
        QuarkusTransaction.requiringNew().run(() -> quota.checkRoomFor(merchant));
        assertEquals(before + 2, quota.counts(), "once the account could have opened the room left, counted again");
    }

    @Test
    void aCountStandsBetweenOneAndTenSeconds() {
        UUID account = UUID.randomUUID();
        assertEquals(OpenTransactionQuota.RECOUNT_AFTER_NANOS, quota.standsForNanos(account, 100),
                "the six bursts alone could open 100: one second, as before");
        assertEquals(OpenTransactionQuota.STANDS_AT_MOST_NANOS, quota.standsForNanos(account, 10_000_000),
                "8,331 s at the account's rate, but never more than ten");
    }

    @Test
    void aStaleBoundIsRecountedByOneCreationWhileTheOthersAreAdmittedOnIt() {
        long second = OpenTransactionQuota.RECOUNT_AFTER_NANOS;
        LongUnaryOperator threeSeconds = room -> 3 * second;
        OpenTransactionQuota.Bound bound = new OpenTransactionQuota.Bound(10, 0);
        assertTrue(bound.admits(3 * second - 1, 5_000, threeSeconds), "a bound admits for as long as it stands");
        assertFalse(bound.admits(3 * second + 1, 5_000, threeSeconds), "the first to find it stale counts again");
        assertTrue(bound.admits(3 * second + 2, 5_000, threeSeconds), "the others are admitted while that count runs");
        assertTrue(bound.admits(4 * second - 1, 5_000, threeSeconds));
        assertFalse(bound.admits(4 * second, 5_000, threeSeconds), "never a second after it went stale");
        assertFalse(new OpenTransactionQuota.Bound(10, 0).admits(0, 11, threeSeconds), "never at half the limit");

        long[] asked = new long[1];
        OpenTransactionQuota.Bound filling = new OpenTransactionQuota.Bound(4_980, 0);
        assertTrue(filling.admits(0, 5_000, room -> {
            asked[0] = room;
            return second;
        }));
        assertEquals(19, asked[0], "how long it stands depends on the room left: 5,000 - 4,980 - the one admitted");
        assertFalse(filling.admits(second + 1, 5_000, room -> second), "takes on the recount");
        filling.admittedSince().addAndGet(20);
        assertFalse(filling.admits(second + 2, 5_000, room -> second),
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

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000L + 1);
        }
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
