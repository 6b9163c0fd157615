package dev.cryptopay.subscription.rest;

import dev.cryptopay.support.paging.PageMetadata;
import java.util.List;

/**
 * Request and response bodies, named exactly as the interface document names them. Money is an exact decimal string;
 * times are RFC 3339 in UTC. Additions to the documented fields: {@code currency} and {@code createdAt} on plans,
 * subscriptions and payments, {@code amount}/{@code updatedAt} on subscriptions, {@code billingDate} and
 * {@code amountPaid} on payments.
 */
public final class SubscriptionDtos {

    private SubscriptionDtos() {
    }

    /** POST /subscriptionplans. {@code amount} is a decimal string (a JSON number is read as its text). */
    public record PlanRequest(String accountId, String merchantId, String planName, String description,
            String amount, String billingInterval, String currency) {
    }

    public record PlanView(String id, String accountId, String merchantId, String planName, String description,
            String billingInterval, String amount, String currency, String createdAt) {
    }

    public record PlanList(List<PlanView> plans, PageMetadata metadata) {
    }

    /** POST /subscriptions. */
    public record SubscriptionRequest(String planId, String customerEmail, String walletAddress, String asset,
            String network, String billingInterval) {
    }

    public record SubscriptionView(String id, String accountId, String merchantId, String planId, String planName,
            String customerEmail, String walletAddress, String asset, String network, String status,
            String billingInterval, String lastBillingAt, String nextBillingAt, String amount, String currency,
            String createdAt, String updatedAt) {
    }

    public record SubscriptionList(List<SubscriptionView> subscriptions, PageMetadata metadata) {
    }

    /** Body of pause, resume and cancel: an optional reason. */
    public record ReasonRequest(String reason) {
    }

    /** Answer of pause, resume and cancel. */
    public record StatusView(String id, String status) {
    }

    public record EventData(String reason) {
    }

    public record EventView(String timestamp, String type, EventData data) {
    }

    public record EventList(List<EventView> events, PageMetadata metadata) {
    }

    /** POST /subscriptionpayments. */
    public record PaymentCreateRequest(String subscriptionId) {
    }

    public record ItemView(String id, String type, String amount) {
    }

    /** One payment attempt; {@code amount} is the crypto amount asked for, in {@code assetSymbol}. */
    public record AttemptView(String id, String result, String network, String assetSymbol, String address,
            String txnHash, String amount, String startedAt, String completedAt, String failureReason) {
    }

    public record PaymentView(String id, String subscriptionId, String planId, String accountId, String merchantId,
            List<ItemView> items, List<AttemptView> payments, String total, String status, String currency,
            String amountPaid, String billingDate, String createdAt) {
    }

    public record PaymentList(List<PaymentView> payments, PageMetadata metadata) {
    }

    /** GET/PUT /operator/subscriptions/clock (sandbox only). */
    public record ClockRequest(Long advanceSeconds) {
    }

    public record ClockView(String now, long offsetSeconds) {
    }
}
