package dev.cryptopay.transaction.service;

/**
 * Fired when a refund leg is created (pending) or moved to broadcast in this replica: after the commit it brings the
 * refund payout job back from its idle back-off at once (docs/decisions.md §98).
 */
public record RefundQueued() {
}
