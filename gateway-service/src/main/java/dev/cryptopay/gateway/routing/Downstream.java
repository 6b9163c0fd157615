package dev.cryptopay.gateway.routing;

/** The services behind the gateway. */
public enum Downstream {
    MERCHANT, TRANSACTION, SUBSCRIPTION, WEBHOOK, REPORTING
}
