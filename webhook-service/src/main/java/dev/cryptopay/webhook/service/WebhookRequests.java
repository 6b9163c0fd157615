package dev.cryptopay.webhook.service;

import java.util.List;

/** What the service layer takes to create or change a webhook; the REST layer maps its bodies onto these. */
public final class WebhookRequests {

    private WebhookRequests() {
    }

    /** A new webhook: name, URL and event types (validated by {@link WebhookValidation}). */
    public record NewWebhook(String name, String url, List<String> events) {
    }

    /** A change: every field optional; a null field stays as it is. */
    public record WebhookChanges(String name, String url, Integer status, List<String> events) {
    }
}
