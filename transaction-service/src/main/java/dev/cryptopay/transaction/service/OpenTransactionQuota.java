package dev.cryptopay.transaction.service;

import dev.cryptopay.support.jdbc.TransactionLocks;
import dev.cryptopay.support.limits.AccountLimits;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.transaction.domain.MerchantView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;

/**
 * The quota of open transactions (status 0 or -3) per merchant (docs/decisions.md §25, §47): the account's
 * {@code openTransactionsPerMerchant} (default 10,000); one more is 409 {@code limit_reached}.
 *
 * <p>Cheap on the creation path: a count over the partial index {@code transaction_open_per_merchant}, stopped at
 * the limit, and no lock while the merchant is well below it. Within {@link #NEAR} of the limit, creations of that
 * merchant take a transaction-scoped advisory lock and count again, so the limit holds exactly there (the count
 * then sees every creation committed before the lock was granted).
 *
 * <p>Far below the limit a creation does not count at all (docs/decisions.md §69, §97): the last exact count of the
 * merchant, plus every creation this replica admitted since, is an upper bound of its open transactions (they only
 * end otherwise). While that bound stays below half the limit (and below the serialising zone) and the count is
 * younger than what the room left allows, the creation is admitted without a query, so a busy merchant's creations
 * cost O(1) instead of a count over its whole backlog. Creations on other replicas are not in this replica's bound, so
 * a count stands only as long as the account could not, at its request rate through every gateway replica (bursts
 * included, {@link AccountLimits#secondsToMake}), open the room left below half the limit: one second at least
 * ({@link #RECOUNT_AFTER_NANOS}), ten at most ({@link #STANDS_AT_MOST_NANOS}). A merchant with a large quota and a
 * large backlog is then counted every ten seconds rather than every second. When the count is stale, the first
 * creation to notice counts again and the others are admitted on the old bound meanwhile (for at most a second more),
 * rather than all counting the same backlog at once. The count near the limit stays exact.
 */
@ApplicationScoped
public class OpenTransactionQuota {

    /** How far below the limit creations start to serialise per merchant. */
    static final int NEAR = 64;
    /**
     * The least time an exact count stands for the merchant's open transactions (plus the creations admitted since),
     * and how much longer the others are admitted on it while one creation counts again.
     */
    static final long RECOUNT_AFTER_NANOS = 1_000_000_000L;
    /** The most time an exact count stands, however much room is left below half the limit. */
    static final long STANDS_AT_MOST_NANOS = 10_000_000_000L;

    /**
     * The last exact count of a merchant and the creations this replica admitted since; {@code recounting} once a
     * creation has taken on the recount of a stale bound.
     */
    record Bound(long counted, long countedAt, AtomicLong admittedSince, AtomicBoolean recounting) {

        Bound(long counted, long countedAt) {
            this(counted, countedAt, new AtomicLong(1), new AtomicBoolean());
        }

        long upper() {
            return counted + admittedSince.get();
        }

        /**
         * Whether a creation at {@code now} is admitted on this bound without counting: while it is younger than
         * {@code standsForNanos} gives for the room left below {@code unboundedBelow}; and, up to a second more, while
         * another creation is already recounting (the first to find it stale counts, the others need not all count
         * the same backlog at once). Never once the bound reaches {@code unboundedBelow}.
         */
        boolean admits(long now, long unboundedBelow, LongUnaryOperator standsForNanos) {
            long upper = upper();
            if (upper >= unboundedBelow) {
                return false;
            }
            long age = now - countedAt;
            long stands = standsForNanos.applyAsLong(unboundedBelow - upper);
            if (age < stands) {
                return true;
            }
            return age < stands + RECOUNT_AFTER_NANOS && !recounting.compareAndSet(false, true);
        }
    }

    private final AccountLimits limits;
    private final EntityManager em;
    private final Map<UUID, Bound> bounds = new ConcurrentHashMap<>();
    private final AtomicLong counts = new AtomicLong();

    public OpenTransactionQuota(AccountLimits limits, EntityManager em) {
        this.limits = limits;
        this.em = em;
    }

    /** Refuses a new transaction of {@code merchant} when its open ones already reach the account's limit. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void checkRoomFor(MerchantView merchant) {
        int max = limits.forAccount(merchant.accountId).openTransactionsPerMerchant();
        long unboundedBelow = Math.min(max / 2, max - NEAR);
        long now = System.nanoTime();
        Bound bound = bounds.get(merchant.merchantId);
        if (bound != null && bound.admits(now, unboundedBelow, room -> standsForNanos(merchant.accountId, room))) {
            bound.admittedSince().incrementAndGet();
            return;
        }
        long open = countOpen(merchant.merchantId, max);
        if (open < unboundedBelow) {
            if (bounds.size() > 100_000) {
                bounds.clear();
            }
            bounds.put(merchant.merchantId, new Bound(open, now));
        } else {
            bounds.remove(merchant.merchantId);
        }
        if (open >= max - NEAR) {
            TransactionLocks.take("open-transactions:" + merchant.merchantId);
            open = countOpen(merchant.merchantId, max);
        }
        if (open >= max) {
            throw ApiException.conflict("limit_reached", "The merchant has " + max + " open transactions (status 0 "
                    + "or -3), its limit; complete, cancel or let some expire before creating more.");
        }
    }

    /**
     * How long an exact count stands for a merchant of {@code accountId} with {@code room} open transactions left
     * below half its limit: the shortest time in which the account could open that many through the gateway, between
     * {@link #RECOUNT_AFTER_NANOS} and {@link #STANDS_AT_MOST_NANOS}.
     */
    long standsForNanos(UUID accountId, long room) {
        double nanos = limits.secondsToMake(accountId, room) * 1e9;
        return (long) Math.max(RECOUNT_AFTER_NANOS, Math.min(STANDS_AT_MOST_NANOS, nanos));
    }

    /** Exact counts run since start (for tests). */
    long counts() {
        return counts.get();
    }

    /** Open transactions of the merchant, counted up to {@code max} (an index-only count, never the whole set). */
    long countOpen(UUID merchantId, int max) {
        counts.incrementAndGet();
        Number count = (Number) em.createNativeQuery("select count(*) from (select 1 from transaction "
                + "where merchant_id = :merchant and status in (0, -3) limit :max) open")
                .setParameter("merchant", merchantId).setParameter("max", max).getSingleResult();
        return count.longValue();
    }
}
