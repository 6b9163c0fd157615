package dev.cryptopay.transaction.detection;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.service.Clock;
import dev.cryptopay.transaction.service.TransactionEvents;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.time.OffsetDateTime;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Expiry (decisions §2): payment requests still awaiting funds when their QR expires become -1; transactions
 * (0 or -3) whose {@code expiration} passed without full payment become -1 with a {@code transaction.expired}
 * event. A transaction with funds still confirming is left to its confirmations (it succeeds, or expires once they
 * are counted short). Rows are claimed with {@code for update skip locked}, so any number of replicas run this at
 * once without expiring anything twice, and a cancel or a watcher pass holding a transaction is never waited for.
 */
@ApplicationScoped
public class Expiry {

    private static final Logger LOG = Logger.getLogger(Expiry.class);

    private final EntityManager em;
    private final TransactionEvents events;
    private final TransactionServiceConfig config;

    public Expiry(EntityManager em, TransactionEvents events, TransactionServiceConfig config) {
        this.em = em;
        this.events = events;
        this.config = config;
    }

    @Scheduled(every = "${cryptopay.transaction.detection.expiry-interval:1s}", delayed = "3s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void run() {
        if (!config.detection().enabled()) {
            return;
        }
        try {
            while (QuarkusTransaction.requiringNew().call(this::expireTransactions) == config.detection()
                    .expiryBatch()) {
                // a full batch: there may be more
            }
            while (QuarkusTransaction.requiringNew().call(this::expireRequests) == config.detection().expiryBatch()) {
                // a full batch: there may be more
            }
        } catch (RuntimeException e) {
            LOG.warnf("Expiry paused until the next run: %s", e.getMessage());
        }
    }

    /** Expires one batch of transactions; answers how many were claimed. */
    int expireTransactions() {
        OffsetDateTime now = Clock.now();
        @SuppressWarnings("unchecked")
        List<Transaction> due = em.createNativeQuery("select * from transaction where status in (0, -3) "
                + "and expiration < :now and payment_status <> 2 order by expiration limit :limit "
                + "for update skip locked", Transaction.class)
                .setParameter("now", now).setParameter("limit", config.detection().expiryBatch()).getResultList();
        for (Transaction tx : due) {
            List<PaymentRequest> requests = PaymentRequest.ofTransaction(tx.id);
            for (PaymentRequest request : requests) {
                if (request.state() == PaymentRequestState.AWAITING) {
                    request.moveTo(PaymentRequestState.EXPIRED);
                }
            }
            tx.moveTo(TransactionState.EXPIRED);
            tx.updatedAt = now;
            Settlement.apply(tx, requests, PaymentTransfer.ofTransaction(tx.id));
            events.publish(EventTypes.TRANSACTION_EXPIRED, tx);
        }
        return due.size();
    }

    /**
     * Expires one batch of payment requests whose QR expired without funds (their transaction may go on): the move
     * AWAITING → EXPIRED of {@link PaymentRequestState}'s table, made in one statement for the whole batch.
     */
    int expireRequests() {
        return em.createNativeQuery("update payment_request set status = :expired where id in (select id from "
                + "payment_request where status = :awaiting and expiration < :now order by expiration limit :limit "
                + "for update skip locked)")
                .setParameter("expired", PaymentRequestState.EXPIRED.wire())
                .setParameter("awaiting", PaymentRequestState.AWAITING.wire())
                .setParameter("now", Clock.now()).setParameter("limit", config.detection().expiryBatch())
                .executeUpdate();
    }
}
