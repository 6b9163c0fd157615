package dev.cryptopay.subscription.domain;

/** How often a plan bills. */
public enum BillingInterval {
    MONTHLY, YEARLY
}
