package dev.cryptopay.merchant.service;

import io.quarkus.hibernate.orm.panache.Panache;

/**
 * PostgreSQL advisory locks named by text (64-bit hash), held until the caller's transaction ends: for work that
 * has no row to lock yet (an account's keys while the account is being created, a merchant's externalMID).
 */
final class TransactionLocks {

    private TransactionLocks() {
    }

    static void take(String name) {
        Panache.getEntityManager()
                .createNativeQuery("select count(*) from (select pg_advisory_xact_lock(hashtextextended(?1, 0))) locked")
                .setParameter(1, name)
                .getSingleResult();
    }
}
