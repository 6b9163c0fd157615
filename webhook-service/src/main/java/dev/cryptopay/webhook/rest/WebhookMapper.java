package dev.cryptopay.webhook.rest;

import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.webhook.domain.Delivery;
import dev.cryptopay.webhook.domain.Webhook;
import dev.cryptopay.webhook.rest.WebhookDtos.CreateWebhookRequest;
import dev.cryptopay.webhook.rest.WebhookDtos.CreatedWebhook;
import dev.cryptopay.webhook.rest.WebhookDtos.DeliveryAttemptView;
import dev.cryptopay.webhook.rest.WebhookDtos.DeliveryListing;
import dev.cryptopay.webhook.rest.WebhookDtos.RedeliveryAccepted;
import dev.cryptopay.webhook.rest.WebhookDtos.RotatedSecret;
import dev.cryptopay.webhook.rest.WebhookDtos.UpdateWebhookRequest;
import dev.cryptopay.webhook.rest.WebhookDtos.WebhookView;
import dev.cryptopay.webhook.service.DeliveryLog;
import dev.cryptopay.webhook.service.WebhookRequests.NewWebhook;
import dev.cryptopay.webhook.service.WebhookRequests.WebhookChanges;
import dev.cryptopay.webhook.service.WebhookService.Rotated;
import dev.cryptopay.webhook.service.WebhookService.WithSecret;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** API bodies to service requests, and service results to API bodies; timestamps as RFC 3339 in UTC. */
public final class WebhookMapper {

    private WebhookMapper() {
    }

    public static NewWebhook request(CreateWebhookRequest body) {
        return body == null ? new NewWebhook(null, null, null) : new NewWebhook(body.name(), body.url(), body.events());
    }

    public static WebhookChanges request(UpdateWebhookRequest body) {
        return body == null ? new WebhookChanges(null, null, null, null)
                : new WebhookChanges(body.name(), body.url(), body.status(), body.events());
    }

    public static CreatedWebhook created(WithSecret created) {
        Webhook webhook = created.webhook();
        return new CreatedWebhook(webhook.id.toString(), created.signingKey(), webhook.name, webhook.url,
                webhook.status, rfc3339(webhook.createdAt));
    }

    public static WebhookView view(WithSecret listed) {
        Webhook webhook = listed.webhook();
        return new WebhookView(webhook.id.toString(), webhook.accountId.toString(), webhook.name, webhook.url,
                webhook.status, List.of(webhook.events), listed.signingKey(), rfc3339(webhook.createdAt));
    }

    public static RotatedSecret rotated(Rotated rotated) {
        return new RotatedSecret(rotated.webhook().id.toString(), rotated.signingKey(),
                rfc3339(rotated.previousKeyExpiresAt()));
    }

    public static DeliveryListing deliveries(DeliveryLog.Page page, PageRequest paging) {
        List<DeliveryAttemptView> items = page.entries().stream().map(WebhookMapper::attempt).toList();
        return new DeliveryListing(items, paging.metadata(page.totalCount(), items.size()));
    }

    public static RedeliveryAccepted redelivery(Delivery delivery) {
        return new RedeliveryAccepted(delivery.id.toString(), delivery.eventId, delivery.status,
                rfc3339(delivery.nextAttemptAt));
    }

    private static DeliveryAttemptView attempt(DeliveryLog.Entry entry) {
        var attempt = entry.attempt();
        var delivery = entry.delivery();
        return new DeliveryAttemptView(delivery.id.toString(), delivery.eventId, delivery.eventType, attempt.attempt,
                rfc3339(attempt.attemptedAt), attempt.httpStatus, attempt.error, attempt.durationMs,
                attempt.succeeded, delivery.status, rfc3339(delivery.nextAttemptAt));
    }

    public static String rfc3339(OffsetDateTime time) {
        return time == null ? null : time.withOffsetSameInstant(ZoneOffset.UTC).format(DateTimeFormatter.ISO_INSTANT);
    }
}
