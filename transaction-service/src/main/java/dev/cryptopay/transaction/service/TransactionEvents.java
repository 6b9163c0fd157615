package dev.cryptopay.transaction.service;

import dev.cryptopay.events.Topics;
import dev.cryptopay.support.outbox.Outbox;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.view.TransactionRows;
import dev.cryptopay.transaction.view.TransactionView;
import dev.cryptopay.transaction.view.TransactionViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.function.Supplier;

/**
 * Transaction events on {@code payments.transactions.v1} through the outbox, keyed by transactionID; each
 * carries the full Transaction as GET /transaction/{id} answers an API key after the change, with its version. A
 * billing transaction's events go to {@code internal.billing.v1} as well, where subscription-service follows the
 * transactions of its attempts without reading every transaction of the platform (docs/decisions.md §109).
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
     * first, so consumers see 1, 2, … without gaps. The event carries {@code kycDetails} null (docs/decisions.md §7).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void publish(String type, Transaction tx) {
        append(type, tx, () -> {
            em.flush();
            return TransactionViews.load(tx);
        });
    }

    /**
     * {@link #publish} for a transaction created in this very transaction, with the payment requests it opened
     * ({@code payments}, oldest first): it has no transfers or refunds yet, so the event is built from the entities in
     * hand, the same JSON as {@link #publish} writes, without flushing and reading the new rows back (three queries
     * and an extra update of the transaction per creation; docs/decisions.md §73).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void publishCreated(String type, Transaction tx, List<PaymentRequest> payments) {
        append(type, tx, () -> TransactionViews.of(tx, payments, List.of(), List.of()));
    }

    /**
     * {@link #publish} for a transaction of a batch whose payment requests, transfers and refunds were read together
     * ({@code rows}): no flush and no reads per transaction. A flush and three queries per transaction made a batch
     * cost the square of its size (each flush checks every entity the batch has loaded; docs/decisions.md §93).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void publish(String type, Transaction tx, TransactionRows rows) {
        append(type, tx, () -> rows.view(tx));
    }

    /**
     * Grows the version, then builds the view (which carries it) and appends it without {@code kycDetails}; for a
     * billing transaction the same event, under an id of its own, to {@code internal.billing.v1} too.
     */
    private void append(String type, Transaction tx, Supplier<TransactionView> view) {
        tx.version++;
        TransactionView event = view.get().withoutKycDetails();
        outbox.append(Topics.TRANSACTIONS, type, tx.id.toString(), event);
        if (tx.billing) {
            outbox.append(Topics.BILLING, type, tx.id.toString(), event);
        }
    }
}
