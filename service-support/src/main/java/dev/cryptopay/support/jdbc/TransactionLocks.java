package dev.cryptopay.support.jdbc;

import io.quarkus.hibernate.orm.panache.Panache;

/**
 * PostgreSQL advisory locks named by text (64-bit hash, {@code hashtextextended}), held until the caller's transaction
 * ends: for a limit or a uniqueness that has no row to lock (an account's keys while the account is being created, a
 * merchant's externalMID, the KYC restore codes of an e-mail, a merchant's open transactions near their limit) and for
 * writers that must go one at a time (a sandbox network's chain, a network's treasury). The caller must be in a
 * transaction; a caller that takes two takes them in one documented order, so two callers cannot wait on each other.
 * Every named lock goes through here: with the 32-bit {@code hashtext}, two of the many names (one per merchant) would
 * share a lock among some tens of thousands, and unrelated work would wait on each other (TransactionLocksTest).
 */
public final class TransactionLocks {

    private TransactionLocks() {
    }

    /** Waits for the lock named {@code name} and holds it until the current transaction ends. */
    public static void take(String name) {
        Panache.getEntityManager()
                .createNativeQuery("select count(*) from (select pg_advisory_xact_lock(hashtextextended(?1, 0))) locked")
                .setParameter(1, name)
                .getSingleResult();
    }
}
