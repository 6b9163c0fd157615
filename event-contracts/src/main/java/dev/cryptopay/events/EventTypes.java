package dev.cryptopay.events;

import java.util.Set;

/**
 * CloudEvent {@code type} values. The transaction, refund and subscription types are also the webhook
 * event types of docs/decisions.md §7; the key and merchant types travel only on the internal compacted topics.
 */
public final class EventTypes {
    public static final String TRANSACTION_CREATED = "transaction.created";
    public static final String TRANSACTION_KYC_REQUIRED = "transaction.kyc_required";
    public static final String TRANSACTION_PAYMENT_DETECTED = "transaction.payment_detected";
    public static final String TRANSACTION_SUCCESS = "transaction.success";
    public static final String TRANSACTION_EXPIRED = "transaction.expired";
    public static final String TRANSACTION_CANCELLED = "transaction.cancelled";
    public static final String TRANSACTION_FORFEITED = "transaction.forfeited";
    /** -3 → 0: a verification was accepted. */
    public static final String TRANSACTION_VERIFIED = "transaction.verified";
    /** A further payment request was opened on the transaction. */
    public static final String TRANSACTION_PAYMENT_REQUESTED = "transaction.payment_requested";
    public static final String TRANSACTION_HELD = "transaction.held";
    public static final String TRANSACTION_RELEASED = "transaction.released";
    public static final String REFUND_CREATED = "refund.created";
    public static final String REFUND_BROADCAST = "refund.broadcast";
    public static final String REFUND_COMPLETED = "refund.completed";
    public static final String REFUND_FAILED = "refund.failed";
    public static final String SUBSCRIPTION_CREATED = "subscription.created";
    public static final String SUBSCRIPTION_PAUSED = "subscription.paused";
    public static final String SUBSCRIPTION_RESUMED = "subscription.resumed";
    public static final String SUBSCRIPTION_CANCELED = "subscription.canceled";
    public static final String SUBSCRIPTION_PAYMENT_FAILED = "subscription.payment_failed";
    public static final String SUBSCRIPTION_PAYMENT_PAID = "subscription_payment.paid";

    /** {@link Topics#BILLING}: subscription-service asks for a billing transaction ({@link BillingRequest}). */
    public static final String BILLING_TRANSACTION_REQUESTED = "billing.transaction_requested";
    /** {@link Topics#BILLING}: transaction-service could not open it ({@link BillingRejection}). */
    public static final String BILLING_TRANSACTION_REJECTED = "billing.transaction_rejected";

    /** A key was created or changed (revoked); data is the key's full state, never the key itself. */
    public static final String KEY_UPDATED = "key.updated";
    /** A merchant's effective configuration changed; data is the full effective configuration. */
    public static final String MERCHANT_UPDATED = "merchant.updated";

    /** The types a webhook may subscribe to (besides {@code *}). */
    public static final Set<String> WEBHOOK_TYPES = Set.of(
            TRANSACTION_CREATED, TRANSACTION_KYC_REQUIRED, TRANSACTION_PAYMENT_DETECTED, TRANSACTION_SUCCESS,
            TRANSACTION_EXPIRED, TRANSACTION_CANCELLED, TRANSACTION_FORFEITED, TRANSACTION_VERIFIED,
            TRANSACTION_PAYMENT_REQUESTED, TRANSACTION_HELD, TRANSACTION_RELEASED, REFUND_CREATED, REFUND_BROADCAST,
            REFUND_COMPLETED, REFUND_FAILED,
            SUBSCRIPTION_CREATED, SUBSCRIPTION_PAUSED, SUBSCRIPTION_RESUMED, SUBSCRIPTION_CANCELED,
            SUBSCRIPTION_PAYMENT_FAILED, SUBSCRIPTION_PAYMENT_PAID);

    private EventTypes() {
    }
}
