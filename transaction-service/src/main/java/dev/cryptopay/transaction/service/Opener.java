package dev.cryptopay.transaction.service;

/** Who opens a transaction: what it may set (only an API key sets {@code fxRate}) and where its events go. */
public enum Opener {
    /** {@code POST /transaction} with an API key. */
    API_KEY,
    /** {@code POST /transaction} with a publishable key. */
    PUBLISHABLE_KEY,
    /**
     * A billing request of subscription-service (internal.billing.v1): the transaction's events go to that topic too
     * (docs/decisions.md §109).
     */
    BILLING
}
