package dev.cryptopay.webhook.service;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.webhook.domain.Webhook;
import dev.cryptopay.webhook.service.WebhookRequests.NewWebhook;
import dev.cryptopay.webhook.service.WebhookRequests.WebhookChanges;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Field-level checks of webhook requests; every bad field is named in one 400 (docs/decisions.md §1):
 * {@code name} required, at most 255 characters; {@code url} see {@link UrlPolicy}; {@code events} a non-empty
 * array of the types of docs/decisions.md §7 or {@code *}; {@code status} 1 or -1.
 */
@ApplicationScoped
public class WebhookValidation {

    private final UrlPolicy urls;

    public WebhookValidation(UrlPolicy urls) {
        this.urls = urls;
    }

    public void checkCreate(NewWebhook request) {
        Validation validation = new Validation().requiredText("name", request.name());
        url(validation, request.url());
        events(validation, request.events(), true);
        validation.throwIfInvalid();
    }

    public void checkUpdate(WebhookChanges request) {
        Validation validation = new Validation();
        if (request.name() != null) {
            validation.requiredText("name", request.name());
        }
        if (request.url() != null) {
            url(validation, request.url());
        }
        if (request.status() != null && request.status() != Webhook.ENABLED && request.status() != Webhook.DISABLED) {
            validation.add("status", "must be 1 (enabled) or -1 (disabled)");
        }
        if (request.events() != null) {
            events(validation, request.events(), true);
        }
        validation.throwIfInvalid();
    }

    private void url(Validation validation, String url) {
        urls.problem(url).ifPresent(problem -> validation.add("url", problem));
    }

    private static void events(Validation validation, List<String> events, boolean required) {
        if (events == null) {
            if (required) {
                validation.add("events", "is required");
            }
            return;
        }
        if (events.isEmpty()) {
            validation.add("events", "must name at least one event type or *");
            return;
        }
        for (int i = 0; i < events.size(); i++) {
            String type = events.get(i);
            if (type == null || !(Webhook.ALL_EVENTS.equals(type) || EventTypes.WEBHOOK_TYPES.contains(type))) {
                validation.add("events[" + i + "]", "must be * or a known event type (see docs/webhooks.md)");
            }
        }
    }
}
