package dev.cryptopay.webhook.rest;

import dev.cryptopay.support.paging.PageMetadata;
import java.util.List;

/** Request and response bodies of the webhook endpoints, named exactly as the interface document and docs/decisions.md §5/§7 name them. */
public final class WebhookDtos {

    private WebhookDtos() {
    }

    /** POST /accounts/{accountUUID}/webhooks. */
    public record CreateWebhookRequest(String name, String url, List<String> events) {
    }

    /** PUT /accounts/{accountUUID}/webhooks/{webhookUUID}: every field optional; an absent or null field is unchanged. */
    public record UpdateWebhookRequest(String name, String url, Integer status, List<String> events) {
    }

    /** The creation answer: the only fields the interface document gives it, with the full {@code wk_} key. */
    public record CreatedWebhook(String uuid, String signingKey, String name, String url, int status,
            String createdAt) {
    }

    /**
     * One webhook in the listing ({@code accountID} appears in listings only). {@code signingKey} is in full for keys
     * that may write webhooks, masked ({@code wk_…} and the last four characters) for read-only keys
     * (docs/decisions.md §42).
     */
    public record WebhookView(String uuid, String accountID, String name, String url, int status,
            List<String> events, String signingKey, String createdAt) {
    }

    public record WebhookListing(List<WebhookView> webhooks) {
    }

    /**
     * One attempt in the delivery log. {@code deliveryId} names the delivery (one event for this webhook; what
     * {@code .../deliveries/{deliveryId}/redeliver} takes); {@code eventId} is also the {@code webhook-id} header.
     * Exactly one of {@code httpStatus} (the receiver answered) and {@code error} (it did not, or was not asked)
     * is set. {@code deliveryStatus} and {@code nextAttemptAt} describe the delivery now: {@code pending},
     * {@code delivered}, {@code failed} (retries exhausted) or {@code cancelled} (webhook disabled or deleted).
     */
    public record DeliveryAttemptView(String deliveryId, String eventId, String eventType, int attempt,
            String attemptedAt, Integer httpStatus, String error, int durationMs, boolean succeeded,
            String deliveryStatus, String nextAttemptAt) {
    }

    public record DeliveryListing(List<DeliveryAttemptView> deliveries, PageMetadata metadata) {
    }

    /** Answer of a redelivery request: the delivery is queued for an immediate attempt. */
    public record RedeliveryAccepted(String deliveryId, String eventId, String status, String nextAttemptAt) {
    }

    /**
     * Answer of {@code POST .../rotate-secret}: the new secret in full, and until when the previous one still signs
     * beside it (null when it stopped at once) (docs/decisions.md §42).
     */
    public record RotatedSecret(String uuid, String signingKey, String previousKeyExpiresAt) {
    }
}
