package dev.cryptopay.webhook.service;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.webhook.delivery.Signatures;
import dev.cryptopay.webhook.domain.Delivery;
import dev.cryptopay.webhook.domain.Webhook;
import dev.cryptopay.webhook.rest.WebhookDtos.CreateWebhookRequest;
import dev.cryptopay.webhook.rest.WebhookDtos.CreatedWebhook;
import dev.cryptopay.webhook.rest.WebhookDtos.UpdateWebhookRequest;
import dev.cryptopay.webhook.rest.WebhookMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;

/**
 * Creates, lists, changes and deletes webhooks. Requests arrive validated ({@link WebhookValidation}).
 *
 * <p>Disabling or deleting a webhook cancels its pending deliveries in the same transaction, after locking the
 * webhook row: the event consumer reads a webhook with a share lock, so an event is either turned into deliveries
 * before the change (and cancelled by it) or sees the webhook disabled. A disabled webhook receives nothing.
 */
@ApplicationScoped
public class WebhookService {

    private final EntityManager em;

    public WebhookService(EntityManager em) {
        this.em = em;
    }

    /** Creates an enabled webhook with a new signing key. */
    @Transactional
    public CreatedWebhook create(UUID accountId, CreateWebhookRequest request) {
        OffsetDateTime now = OffsetDateTime.now().truncatedTo(ChronoUnit.MICROS);
        Webhook webhook = new Webhook();
        webhook.id = UUID.randomUUID();
        webhook.accountId = accountId;
        webhook.name = request.name().strip();
        webhook.url = request.url().strip();
        webhook.status = Webhook.ENABLED;
        webhook.events = distinct(request.events());
        webhook.signingKey = Signatures.newKey();
        webhook.createdAt = now;
        webhook.updatedAt = now;
        webhook.persist();
        return WebhookMapper.created(webhook);
    }

    @Transactional
    public List<Webhook> list(UUID accountId) {
        return Webhook.listForAccount(accountId);
    }

    @Transactional
    public void update(UUID accountId, UUID webhookId, UpdateWebhookRequest request) {
        Webhook webhook = lock(accountId, webhookId);
        if (request.name() != null) {
            webhook.name = request.name().strip();
        }
        if (request.url() != null) {
            webhook.url = request.url().strip();
        }
        if (request.events() != null) {
            webhook.events = distinct(request.events());
        }
        if (request.status() != null && request.status() != webhook.status) {
            webhook.status = request.status();
            if (webhook.status == Webhook.DISABLED) {
                cancelPending(webhook.id);
            }
        }
        webhook.updatedAt = OffsetDateTime.now();
    }

    @Transactional
    public void delete(UUID accountId, UUID webhookId) {
        Webhook webhook = lock(accountId, webhookId);
        webhook.deletedAt = OffsetDateTime.now();
        webhook.updatedAt = webhook.deletedAt;
        cancelPending(webhook.id);
    }

    private Webhook lock(UUID accountId, UUID webhookId) {
        Webhook webhook = em.find(Webhook.class, webhookId, LockModeType.PESSIMISTIC_WRITE);
        if (webhook == null || !webhook.accountId.equals(accountId) || webhook.deletedAt != null) {
            throw ApiException.notFound("Webhook " + webhookId);
        }
        return webhook;
    }

    /** Locks in id order, as the dispatcher's result writer does, so the two cannot deadlock. */
    private void cancelPending(UUID webhookId) {
        em.createNativeQuery("update delivery set status = ?2, next_attempt_at = null, updated_at = now() "
                + "where id in (select id from delivery where webhook_id = ?1 and status = ?3 order by id for update)")
                .setParameter(1, webhookId).setParameter(2, Delivery.CANCELLED).setParameter(3, Delivery.PENDING)
                .executeUpdate();
    }

    private static String[] distinct(List<String> events) {
        return new LinkedHashSet<>(events).toArray(String[]::new);
    }
}
