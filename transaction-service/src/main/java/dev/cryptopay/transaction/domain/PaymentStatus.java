package dev.cryptopay.transaction.domain;

/**
 * Transaction {@code paymentStatus} (docs/decisions.md §2): the aggregate of its payment requests, recomputed from the
 * transfers by {@link Settlement} on every pass, so it has no moves of its own, only wire values.
 */
public enum PaymentStatus {
    UNPAID(0), PAID(1), CONFIRMING(2), PARTIALLY_PAID(3), OVERPAID(4);

    private final int wire;

    PaymentStatus(int wire) {
        this.wire = wire;
    }

    public int wire() {
        return wire;
    }
}
