package dev.cryptopay.subscription.domain;

/**
 * Types of the subscription history (GET /subscriptions/{id}/events). The first five are the interface document's;
 * {@code ACTIVATED} is this service's extension for the two moves into ACTIVE that have no documented type (CREATED or
 * PAYMENT_FAILED → ACTIVE when a billing is paid), so that every move leaves its event (docs/decisions.md §12).
 */
public enum SubscriptionEventType {
    CREATED, PAUSED, RESUMED, CANCELED, PAYMENT_FAILED, ACTIVATED
}
