package dev.cryptopay.webhook.rest;

import dev.cryptopay.webhook.domain.Webhook;
import dev.cryptopay.webhook.rest.WebhookDtos.CreatedWebhook;
import dev.cryptopay.webhook.rest.WebhookDtos.WebhookView;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** Entities to API bodies; timestamps as RFC 3339 in UTC. */
public final class WebhookMapper {

    private WebhookMapper() {
    }

    public static CreatedWebhook created(Webhook webhook) {
        return new CreatedWebhook(webhook.id.toString(), webhook.signingKey, webhook.name, webhook.url,
                webhook.status, rfc3339(webhook.createdAt));
    }

    public static WebhookView view(Webhook webhook) {
        return new WebhookView(webhook.id.toString(), webhook.accountId.toString(), webhook.name, webhook.url,
                webhook.status, List.of(webhook.events), webhook.signingKey, rfc3339(webhook.createdAt));
    }

    public static String rfc3339(OffsetDateTime time) {
        return time == null ? null : time.withOffsetSameInstant(ZoneOffset.UTC).format(DateTimeFormatter.ISO_INSTANT);
    }
}
