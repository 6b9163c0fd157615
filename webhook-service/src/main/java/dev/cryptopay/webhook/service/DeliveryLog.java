package dev.cryptopay.webhook.service;

import dev.cryptopay.support.jdbc.ConsistentReads;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.webhook.domain.Delivery;
import dev.cryptopay.webhook.domain.DeliveryAttempt;
import dev.cryptopay.webhook.domain.Webhook;
import dev.cryptopay.support.paging.PageRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.UUID;

/** The delivery log of a webhook (every attempt, newest first) and manual redelivery (docs/decisions.md §7). */
@ApplicationScoped
public class DeliveryLog {

    /** One logged attempt and the delivery it belongs to (as it stands now). */
    public record Entry(DeliveryAttempt attempt, Delivery delivery) {
    }

    /** One page of the log, newest first, and how many attempts the log holds in all. */
    public record Page(List<Entry> entries, long totalCount) {
    }

    private final EntityManager em;
    private final ConsistentReads consistentReads;

    public DeliveryLog(EntityManager em, ConsistentReads consistentReads) {
        this.em = em;
        this.consistentReads = consistentReads;
    }

    @Transactional
    public Page list(UUID accountId, UUID webhookId, PageRequest paging) {
        consistentReads.begin(); // the total and the page of one moment
        requireWebhook(accountId, webhookId);
        long total = em.createQuery("select count(a) from DeliveryAttempt a where a.webhookId = ?1", Long.class)
                .setParameter(1, webhookId).getSingleResult();
        List<Entry> items = List.of();
        if (paging.offset() < total) {
            items = em.createQuery("select a, d from DeliveryAttempt a join Delivery d on d.id = a.deliveryId "
                    + "where a.webhookId = ?1 order by a.attemptedAt desc, a.id desc", Object[].class)
                    .setParameter(1, webhookId)
                    .setFirstResult((int) paging.offset())
                    .setMaxResults(paging.limit())
                    .getResultList().stream()
                    .map(row -> new Entry((DeliveryAttempt) row[0], (Delivery) row[1]))
                    .toList();
        }
        return new Page(items, total);
    }

    /**
     * Queues one more attempt of a delivery now, whatever its state, with the same {@code webhook-id}; should it
     * fail, the retry schedule starts again. A disabled webhook receives nothing: 409; nor does an event whose body is
     * no longer kept (payload retention, docs/decisions.md §43): 409. Answers the delivery as queued.
     */
    @Transactional
    public Delivery redeliver(UUID accountId, UUID webhookId, UUID deliveryId) {
        // Shares the lock that disabling takes, so a redelivery cannot slip past a concurrent disable.
        Webhook webhook = em.find(Webhook.class, webhookId, LockModeType.PESSIMISTIC_READ);
        if (webhook == null || !webhook.accountId.equals(accountId) || webhook.deletedAt != null) {
            throw ApiException.notFound("Webhook " + webhookId);
        }
        Delivery delivery = em.find(Delivery.class, deliveryId, LockModeType.PESSIMISTIC_WRITE);
        if (delivery == null || !delivery.webhookId.equals(webhook.id)) {
            throw ApiException.notFound("Delivery " + deliveryId);
        }
        if (webhook.status != Webhook.ENABLED) {
            throw ApiException.conflict("invalid_state", "The webhook is disabled; enable it before redelivering.");
        }
        // Share-locked: the retention purge skips a body locked here, and one it is deleting is gone when this reads.
        boolean bodyKept = !em.createNativeQuery("select 1 from event_payload where event_id = ?1 for share")
                .setParameter(1, delivery.eventId).getResultList().isEmpty();
        if (!bodyKept) {
            throw ApiException.conflict("invalid_state", "The body of event " + delivery.eventId
                    + " is no longer kept (payload retention, docs/webhooks.md); it cannot be sent again.");
        }
        em.createNativeQuery("update delivery set status = ?2, next_attempt_at = now(), retry_step = 0, "
                + "generation = generation + 1, lease_until = null, updated_at = now() where id = ?1")
                .setParameter(1, deliveryId).setParameter(2, Delivery.PENDING).executeUpdate();
        em.refresh(delivery);
        return delivery;
    }

    private static Webhook requireWebhook(UUID accountId, UUID webhookId) {
        return Webhook.findForAccount(accountId, webhookId)
                .orElseThrow(() -> ApiException.notFound("Webhook " + webhookId));
    }
}
