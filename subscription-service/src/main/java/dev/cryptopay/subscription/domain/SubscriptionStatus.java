package dev.cryptopay.subscription.domain;

/** Subscription states (interface document, docs/decisions.md §12); moves between them: {@link SubscriptionStateMachine}. */
public enum SubscriptionStatus {
    CREATED, ACTIVE, PAUSED, PAYMENT_FAILED, CANCELED
}
