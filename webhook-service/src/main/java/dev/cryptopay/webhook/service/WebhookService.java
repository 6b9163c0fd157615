package dev.cryptopay.webhook.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.jdbc.TransactionLocks;
import dev.cryptopay.support.limits.AccountLimits;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.webhook.config.WebhookConfig;
import dev.cryptopay.webhook.domain.Delivery;
import dev.cryptopay.webhook.domain.Webhook;
import dev.cryptopay.webhook.service.WebhookRequests.NewWebhook;
import dev.cryptopay.webhook.service.WebhookRequests.WebhookChanges;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Creates, lists, changes and deletes webhooks, and rotates their signing secrets. Requests arrive validated
 * ({@link WebhookValidation}).
 *
 * <p>Disabling or deleting a webhook cancels its pending deliveries in the same transaction, after locking the
 * webhook row: the event consumer reads a webhook with a share lock, so an event is either turned into deliveries
 * before the change (and cancelled by it) or sees the webhook disabled. A disabled webhook receives nothing.
 */
@ApplicationScoped
public class WebhookService {

    /** A webhook with its signing secret as the caller may see it: in full, or masked. */
    public record WithSecret(Webhook webhook, String signingKey) {
    }

    /** A rotated secret: the new one in full, and until when the previous one still signs (null: not at all). */
    public record Rotated(Webhook webhook, String signingKey, OffsetDateTime previousKeyExpiresAt) {
    }

    private final EntityManager em;
    private final SigningSecrets secrets;
    private final AccountLimits limits;
    private final Duration rotationOverlap;
    private final IdempotentCreations creations;

    public WebhookService(EntityManager em, SigningSecrets secrets, AccountLimits limits, WebhookConfig config,
            IdempotentCreations creations) {
        this.em = em;
        this.secrets = secrets;
        this.limits = limits;
        this.rotationOverlap = config.secrets().rotationOverlap();
        this.creations = creations;
    }

    /**
     * {@link #create(UUID, NewWebhook)} once per caller and Idempotency-Key (docs/decisions.md §122): a retry the
     * gateway could not answer gets the first answer, its signing secret {@code null} (shown once, §28), not a second
     * webhook that would receive every event again. {@code answer} is what the API shows of the new webhook.
     */
    @Transactional
    public IdempotentCreations.Once<JsonNode> create(Caller caller, UUID accountId, NewWebhook request,
            String idempotencyKey, Function<WithSecret, ?> answer) {
        return creations.onceAsJson(caller, idempotencyKey, request, () -> answer.apply(create(accountId, request)));
    }

    /**
     * Creates an enabled webhook with a new signing secret; answers it with the secret in full. An account holds at
     * most {@code AccountLimits.forAccount(account).webhooks()} webhooks (default 100): one more is 409
     * {@code limit_reached} (docs/decisions.md §25, §40).
     */
    @Transactional
    public WithSecret create(UUID accountId, NewWebhook request) {
        lockAccount(accountId);
        int cap = limits.forAccount(accountId).webhooks();
        long held = em.createQuery("select count(w) from Webhook w where w.accountId = ?1 and w.deletedAt is null",
                Long.class).setParameter(1, accountId).getSingleResult();
        if (held >= cap) {
            throw ApiException.conflict("limit_reached", "The account already holds " + held + " webhooks, its limit "
                    + "is " + cap + "; delete one first (docs/decisions.md §25).");
        }
        OffsetDateTime now = OffsetDateTime.now().truncatedTo(ChronoUnit.MICROS);
        String secret = SigningSecrets.newSecret();
        Webhook webhook = new Webhook();
        webhook.id = UUID.randomUUID();
        webhook.accountId = accountId;
        webhook.name = request.name().strip();
        webhook.url = request.url().strip();
        webhook.status = Webhook.ENABLED;
        webhook.events = distinct(request.events());
        webhook.sealedSigningKey = secrets.seal(webhook.id, secret);
        webhook.createdAt = now;
        webhook.updatedAt = now;
        webhook.persist();
        return new WithSecret(webhook, secret);
    }

    /**
     * The account's webhooks. {@code revealSecrets}: keys that may write webhooks see each signing secret in full,
     * the others see it masked, {@code wk_…} and its last four characters (docs/decisions.md §42).
     */
    @Transactional
    public List<WithSecret> list(UUID accountId, boolean revealSecrets) {
        return Webhook.listForAccount(accountId).stream().map(webhook -> {
            String secret = secrets.open(webhook.id, webhook.sealedSigningKey);
            return new WithSecret(webhook, revealSecrets ? secret : SigningSecrets.mask(secret));
        }).toList();
    }

    @Transactional
    public void update(UUID accountId, UUID webhookId, WebhookChanges request) {
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

    /**
     * Gives the webhook a new signing secret. Attempts from now on carry two signatures, the new secret's and the
     * previous one's, until the overlap ({@code cryptopay.webhooks.secrets.rotation-overlap}, 24 h) ends, so a
     * receiver can switch to the new secret at its own pace (docs/decisions.md §42). A second rotation within the
     * overlap drops the oldest secret at once.
     */
    @Transactional
    public Rotated rotate(UUID accountId, UUID webhookId) {
        Webhook webhook = lock(accountId, webhookId);
        OffsetDateTime now = OffsetDateTime.now().truncatedTo(ChronoUnit.MICROS);
        String secret = SigningSecrets.newSecret();
        if (rotationOverlap.isZero() || rotationOverlap.isNegative()) {
            webhook.sealedPreviousSigningKey = null;
            webhook.previousKeyExpiresAt = null;
        } else {
            webhook.sealedPreviousSigningKey = webhook.sealedSigningKey;
            webhook.previousKeyExpiresAt = now.plus(rotationOverlap);
        }
        webhook.sealedSigningKey = secrets.seal(webhook.id, secret);
        webhook.updatedAt = now;
        return new Rotated(webhook, secret, webhook.previousKeyExpiresAt);
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

    /** Serializes creations per account until commit, so two at once cannot both pass the cap. */
    private void lockAccount(UUID accountId) {
        TransactionLocks.take("account-webhooks:" + accountId);
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
