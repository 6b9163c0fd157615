package dev.cryptopay.transaction.service;

import dev.cryptopay.events.Topics;
import dev.cryptopay.support.outbox.Outbox;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.view.TransactionViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/**
 * Transaction events on {@code payments.transactions.v1} through the outbox, keyed by transactionID; each
 * carries the full Transaction as GET /transaction/{id} answers an API key after the change, with its version.
 */
@ApplicationScoped
public class TransactionEvents {

    private final Outbox outbox;
    private final EntityManager em;

    public TransactionEvents(Outbox outbox, EntityManager em) {
        this.outbox = outbox;
        this.em = em;
    }

    /**
     * Appends {@code type} with the transaction as it now stands; the transaction's {@code version} grows by one
     * first, so consumers see 1, 2, … without gaps. The event carries {@code kycDetails} null (decisions §7).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void publish(String type, Transaction tx) {
        tx.version++;
        em.flush();
        outbox.append(Topics.TRANSACTIONS, type, tx.id.toString(), TransactionViews.load(tx).withoutKycDetails());
    }
}
