package dev.cryptopay.transaction.rates;

import dev.cryptopay.support.cache.ShortLivedCache;
import dev.cryptopay.transaction.domain.ExchangeRate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.util.Optional;

/**
 * The rate provider of the sandbox: the {@code exchange_rate} table that the operator sets.
 *
 * <p>Every creation quotes with one or two rates, so a rate read from the table is kept for up to a second per
 * replica (docs/decisions.md §75), as the immutable {@link Rate} record. An operator change on this replica
 * ({@link #forget}) drops every kept rate at once and again when its transaction ends, and a read that overlapped the
 * change is not kept ({@link ShortLivedCache}), so the next quote here uses the new rate. Another replica's change
 * applies here within the second.
 */
@ApplicationScoped
public class OperatorRateTable implements RateProvider {

    /** How long a rate read from the table is reused (nanoseconds). */
    static final long CACHE_NANOS = 1_000_000_000L;

    private final ShortLivedCache<String, Optional<Rate>> kept = new ShortLivedCache<>(CACHE_NANOS, 10_000);
    private final EntityManager em;
    private final TransactionSynchronizationRegistry transactions;

    public OperatorRateTable(EntityManager em, TransactionSynchronizationRegistry transactions) {
        this.em = em;
        this.transactions = transactions;
    }

    @Override
    @Transactional
    public Optional<Rate> latest(String code) {
        return kept.get(code, c -> Optional.ofNullable(em.find(ExchangeRate.class, c))
                .map(row -> new Rate(row.code, row.usd, row.asOf.toInstant())));
    }

    /**
     * Forgets every kept rate now and when the caller's transaction ends: the operator is changing the table, and
     * no quote on this replica may use the old rate once the change is committed.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void forget() {
        kept.forget(transactions);
    }
}
