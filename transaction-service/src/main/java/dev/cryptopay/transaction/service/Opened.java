package dev.cryptopay.transaction.service;

/**
 * Fired when a transaction or payment request is opened in this replica, or a held transaction is released: after the
 * commit it brings the payment watcher and expiry back from their idle back-off at once (docs/decisions.md §74, §126).
 * {@code network} is the payment request's, or null for a transaction without one (waiting for KYC, or released).
 */
public record Opened(String network) {
}
