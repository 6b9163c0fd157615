package dev.cryptopay.subscription.domain;

/** Subscription payment states of the interface document. */
public enum PaymentStatus {
    PAID, PENDING, PARTIALLY_PAID, FAILED
}
