package dev.cryptopay.webhook.service;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.webhook.domain.Delivery;
import dev.cryptopay.webhook.domain.DeliveryAttempt;
import dev.cryptopay.webhook.domain.Webhook;
import dev.cryptopay.webhook.rest.Paging;
import dev.cryptopay.webhook.rest.WebhookDtos.DeliveryAttemptView;
import dev.cryptopay.webhook.rest.WebhookDtos.DeliveryListing;
import dev.cryptopay.webhook.rest.WebhookDtos.Metadata;
import dev.cryptopay.webhook.rest.WebhookDtos.RedeliveryAccepted;
import dev.cryptopay.webhook.rest.WebhookMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.UUID;

/** The delivery log of a webhook (every attempt, newest first) and manual redelivery (decisions §7). */
@ApplicationScoped
public class DeliveryLog {

    private final EntityManager em;

    public DeliveryLog(EntityManager em) {
        this.em = em;
    }

    @Transactional
    public DeliveryListing list(UUID accountId, UUID webhookId, Paging paging) {
        requireWebhook(accountId, webhookId);
        long total = em.createQuery("select count(a) from DeliveryAttempt a where a.webhookId = ?1", Long.class)
                .setParameter(1, webhookId).getSingleResult();
        List<DeliveryAttemptView> items = List.of();
        if (paging.offset() < total) {
            items = em.createQuery("select a, d from DeliveryAttempt a join Delivery d on d.id = a.deliveryId "
                    + "where a.webhookId = ?1 order by a.attemptedAt desc, a.id desc", Object[].class)
                    .setParameter(1, webhookId)
                    .setFirstResult((int) paging.offset())
                    .setMaxResults(paging.limit())
                    .getResultList().stream()
                    .map(row -> view((DeliveryAttempt) row[0], (Delivery) row[1]))
                    .toList();
        }
        return new DeliveryListing(items, new Metadata(total, items.size(), paging.page(), paging.limit()));
    }

    /**
     * Queues one more attempt of a delivery now, whatever its state, with the same {@code webhook-id}; should it
     * fail, the retry schedule starts again. A disabled webhook receives nothing: 409.
     */
    @Transactional
    public RedeliveryAccepted redeliver(UUID accountId, UUID webhookId, UUID deliveryId) {
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
        em.createNativeQuery("update delivery set status = ?2, next_attempt_at = now(), retry_step = 0, "
                + "generation = generation + 1, lease_until = null, updated_at = now() where id = ?1")
                .setParameter(1, deliveryId).setParameter(2, Delivery.PENDING).executeUpdate();
        em.refresh(delivery);
        return new RedeliveryAccepted(delivery.id.toString(), delivery.eventId, delivery.status,
                WebhookMapper.rfc3339(delivery.nextAttemptAt));
    }

    private static Webhook requireWebhook(UUID accountId, UUID webhookId) {
        return Webhook.findForAccount(accountId, webhookId)
                .orElseThrow(() -> ApiException.notFound("Webhook " + webhookId));
    }

    private static DeliveryAttemptView view(DeliveryAttempt attempt, Delivery delivery) {
        return new DeliveryAttemptView(delivery.id.toString(), delivery.eventId, delivery.eventType, attempt.attempt,
                WebhookMapper.rfc3339(attempt.attemptedAt), attempt.httpStatus, attempt.error, attempt.durationMs,
                attempt.succeeded, delivery.status, WebhookMapper.rfc3339(delivery.nextAttemptAt));
    }
}
