package dev.cryptopay.webhook.service;

import dev.cryptopay.webhook.config.WebhookConfig;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Keeps event bodies only as long as they may be needed (docs/decisions.md §43): a body older than
 * {@code cryptopay.webhooks.payload-retention} (30 days) is deleted once no delivery of it is pending. Bodies carry
 * transaction data (never customer details: those are removed on the way in), so they are not kept forever. The
 * delivery log keeps its entries; redelivering one whose body is gone answers 409.
 */
@ApplicationScoped
public class PayloadRetention {

    private static final Logger LOG = Logger.getLogger(PayloadRetention.class);
    private static final int BATCH = 5000;

    /**
     * Old bodies with no pending delivery, locked while deleting; a body a redelivery holds (share lock) is skipped
     * and comes up again next time.
     */
    private static final String PURGE = """
            with doomed as (
                select p.event_id from event_payload p
                where p.created_at < now() - ?1 * interval '1 second'
                  and not exists (select 1 from delivery d where d.event_id = p.event_id and d.status = 'pending')
                order by p.created_at
                limit ?2
                for update of p skip locked
            )
            delete from event_payload e using doomed where e.event_id = doomed.event_id
            """;

    private final EntityManager em;
    private final Duration retention;

    public PayloadRetention(EntityManager em, WebhookConfig config) {
        this.em = em;
        this.retention = config.payloadRetention();
    }

    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        int deleted = 0;
        int batch;
        do {
            batch = purgeBatch();
            deleted += batch;
        } while (batch == BATCH);
        if (deleted > 0) {
            LOG.infof("deleted %d event bodies older than %s", deleted, retention);
        }
    }

    /** Deletes one batch of expired bodies; answers how many. */
    @Transactional
    public int purgeBatch() {
        return em.createNativeQuery(PURGE).setParameter(1, retention.toSeconds()).setParameter(2, BATCH)
                .executeUpdate();
    }
}
