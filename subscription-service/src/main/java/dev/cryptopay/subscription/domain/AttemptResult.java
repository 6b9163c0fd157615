package dev.cryptopay.subscription.domain;

/**
 * Where one payment attempt (one billing transaction) stands: {@code REQUESTED} until transaction-service opened
 * the transaction, {@code PENDING} awaiting funds at its address, {@code CONFIRMING} while a transfer is seen but not
 * confirmed, {@code PARTIALLY_PAID} confirmed funds short of the amount (the shortfall is still payable to the same
 * address until the transaction expires), then {@code PAID} or {@code FAILED} (final).
 */
public enum AttemptResult {
    REQUESTED, PENDING, CONFIRMING, PARTIALLY_PAID, PAID, FAILED;

    public boolean open() {
        return this != PAID && this != FAILED;
    }
}
