package dev.cryptopay.transaction.service;

import java.time.OffsetDateTime;

/**
 * Fired when a transaction or payment request is opened in this replica, or a held transaction is released: after the
 * commit it brings the payment watcher and expiry back from their idle back-off at once (docs/decisions.md §74, §126).
 * {@code network} and {@code expiration} are the payment request's (the watcher reads a real node every second until
 * then, §129), or null for a transaction without one (waiting for KYC, or released).
 */
public record Opened(String network, OffsetDateTime expiration) {

    /** A transaction without a payment request. */
    public static Opened withoutRequest() {
        return new Opened(null, null);
    }
}
