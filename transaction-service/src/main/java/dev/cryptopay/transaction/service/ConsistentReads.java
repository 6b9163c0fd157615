package dev.cryptopay.transaction.service;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/**
 * Reads of a transaction take several statements (the transaction, its payment requests, its transfers) while the
 * watcher commits changes to all three at once. Under PostgreSQL's default READ COMMITTED each statement could see
 * a different commit, so an answer could mix a transaction from before a pass with transfers from after it. A
 * REPEATABLE READ transaction reads one snapshot for all of them; it must be set before the first query.
 */
@ApplicationScoped
public class ConsistentReads {

    private final EntityManager em;

    public ConsistentReads(EntityManager em) {
        this.em = em;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void begin() {
        em.createNativeQuery("set transaction isolation level repeatable read, read only").executeUpdate();
    }
}
