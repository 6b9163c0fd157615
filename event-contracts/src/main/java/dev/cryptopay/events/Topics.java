package dev.cryptopay.events;

/** Kafka topics of the public event stream (docs/decisions.md §8). Every record is a CloudEvent keyed by its aggregate id. */
public final class Topics {
    /** Transaction lifecycle; key = transactionID. */
    public static final String TRANSACTIONS = "payments.transactions.v1";
    /** Refund legs; key = refundID. */
    public static final String REFUNDS = "payments.refunds.v1";
    /** Subscriptions and their payments; key = subscription id. */
    public static final String SUBSCRIPTIONS = "payments.subscriptions.v1";
    /** Effective merchant configuration, compacted; key = merchant UUID. */
    public static final String MERCHANTS = "payments.merchants.v1";
    /** API and publishable key state (hashes only), compacted; key = key UUID. */
    public static final String KEYS = "payments.keys.v1";
    /**
     * Internal, not part of the public stream: subscription-service asks transaction-service to open a billing
     * transaction, transaction-service answers when that is refused and, once opened, sends each of the transaction's
     * {@code transaction.*} events here as well (the public event under an id of its own, docs/decisions.md §109);
     * key = the requested transactionId.
     */
    public static final String BILLING = "internal.billing.v1";

    private Topics() {
    }
}
