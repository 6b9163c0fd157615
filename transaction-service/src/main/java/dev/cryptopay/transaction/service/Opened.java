package dev.cryptopay.transaction.service;

/**
 * Fired when a transaction or payment request is opened in this replica: after the commit it brings the payment
 * watcher and expiry back from their idle back-off at once (docs/decisions.md §74). {@code network} is the payment
 * request's, or null for a transaction without one yet (waiting for KYC).
 */
public record Opened(String network) {
}
