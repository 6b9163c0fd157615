package dev.cryptopay.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * Data of {@link EventTypes#BILLING_TRANSACTION_REJECTED}: the requested transaction was not created and never will
 * be. {@code code} is the problem code {@code POST /transaction} would have answered (for example
 * {@code merchant_not_enabled} or {@code validation_failed}); temporary failures are retried, never rejected.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BillingRejection(String transactionId, String code, String detail) {
}
