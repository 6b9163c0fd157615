package dev.cryptopay.support.outbox;

import io.quarkus.arc.Unremovable;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.OffsetDateTime;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Deletes outbox rows published longer ago than {@code cryptopay.outbox.retention} (7 days), every
 * {@code cryptopay.outbox.prune-interval} (1 hour), a batch per database transaction (docs/decisions.md §96).
 *
 * <p>A published row has no further use here: its event lives on in its topic (transactions and refunds are kept
 * there for good), and what a crash or a broker outage leaves behind are unpublished rows, which are never deleted
 * whatever their age. The retention leaves a week to look at what a service sent from its own database. Without this
 * every service's outbox kept every event it ever wrote (transaction-service's: 172 MB after 56,000 creations).
 *
 * <p>The cost stays that of the rows deleted, however large the outbox: rows are numbered in the order they were
 * written, so the first row written after the cutoff bounds the search ({@code seq} below it, by the primary key), and
 * no index is added for it (each would cost every event's marking).
 */
@ApplicationScoped
@Unremovable
public class OutboxPruner {

    private static final Logger LOG = Logger.getLogger(OutboxPruner.class);

    private final EntityManager em;
    private final Duration retention;
    private final int batchSize;

    public OutboxPruner(EntityManager em,
            @ConfigProperty(name = "cryptopay.outbox.retention", defaultValue = "7d") Duration retention,
            @ConfigProperty(name = "cryptopay.outbox.prune-batch-size", defaultValue = "5000") int batchSize) {
        this.em = em;
        this.retention = retention;
        this.batchSize = batchSize;
    }

    @Scheduled(every = "${cryptopay.outbox.prune-interval:1h}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        try {
            int deleted = prune(OffsetDateTime.now().minus(retention), batchSize);
            if (deleted > 0) {
                LOG.infof("outbox: deleted %d rows published before the retention of %s", deleted, retention);
            }
        } catch (RuntimeException e) {
            LOG.warnf("outbox pruning failed, will retry at the next interval: %s", e.getMessage());
        }
    }

    /** Deletes the rows published before {@code cutoff}, {@code batch} per transaction; answers how many. */
    int prune(OffsetDateTime cutoff, int batch) {
        // The first row written at or after the cutoff: every row published before the cutoff was written before it.
        long bound = QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select coalesce((select seq from outbox_event where created_at >= ?1 order by seq limit 1), "
                        + "(select max(seq) + 1 from outbox_event), 0)")
                .setParameter(1, cutoff).getSingleResult()).longValue());
        int total = 0;
        int deleted;
        do {
            deleted = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                    "delete from outbox_event where seq in (select seq from outbox_event where seq < ?1 "
                            + "and published_at < ?2 order by seq limit ?3)")
                    .setParameter(1, bound).setParameter(2, cutoff).setParameter(3, batch)
                    .executeUpdate());
            total += deleted;
        } while (deleted == batch);
        return total;
    }
}
