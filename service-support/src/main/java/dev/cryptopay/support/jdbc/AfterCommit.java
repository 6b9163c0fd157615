package dev.cryptopay.support.jdbc;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/** Work that may only run once the caller's transaction has committed (and never when it rolls back). */
public final class AfterCommit {

    private AfterCommit() {
    }

    /**
     * Runs {@code action} after the caller's transaction commits. With {@code once} set, at most one action per
     * transaction is registered under that key (a transaction resource): the first caller's.
     */
    public static void run(TransactionSynchronizationRegistry transactions, Object once, Runnable action) {
        if (once != null) {
            if (transactions.getResource(once) != null) {
                return;
            }
            transactions.putResource(once, Boolean.TRUE);
        }
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    action.run();
                }
            }
        });
    }
}
