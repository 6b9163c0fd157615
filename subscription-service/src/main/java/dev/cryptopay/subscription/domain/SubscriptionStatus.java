package dev.cryptopay.subscription.domain;

/** Subscription states (interface document, decisions §12); moves between them: {@link SubscriptionStateMachine}. */
public enum SubscriptionStatus {
    CREATED, ACTIVE, PAUSED, PAYMENT_FAILED, CANCELED
}
