package dev.cryptopay.subscription.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/**
 * Billing, dunning and e-mail settings of subscription-service (README "Configuration"). Defaults are production
 * values; the {@code %test} profile and the system tests shorten them.
 */
@ConfigMapping(prefix = "cryptopay.subscriptions")
public interface SubscriptionConfig {

    /**
     * Dunning: the wait before each retry of a payment, the n-th entry after the n-th failed attempt. A payment gets
     * one attempt plus one retry per entry; when the last fails the payment is FAILED and the subscription
     * PAYMENT_FAILED.
     */
    @WithDefault("1d,3d,7d")
    List<Duration> retrySchedule();

    /** How often the billing job looks for due subscriptions and due retries (the scheduler's finest step is 1 s). */
    @WithDefault("10s")
    Duration billingJobInterval();

    /** Whether this instance runs the billing job on its schedule (tests run it by hand). */
    @WithDefault("true")
    boolean billingJobEnabled();

    /** Subscriptions (and retries) one billing transaction claims at most. */
    @WithDefault("100")
    int billingBatchSize();

    /**
     * An attempt whose transaction transaction-service has neither opened nor rejected after this long fails
     * ({@code transaction_not_opened}) and counts as a dunning step.
     */
    @WithDefault("1h")
    Duration attemptOpenTimeout();

    /**
     * Sandbox only: whether the operator may move this service's clock (PUT /operator/subscriptions/clock), for
     * system tests. Ignored (404) in production.
     */
    @WithDefault("false")
    boolean clockControl();

    Mail mail();

    interface Mail {
        /** Sender address of every e-mail. */
        @WithDefault("billing@cryptopay.local")
        String from();

        /**
         * How often the safety net sends queued e-mails while any waits (they are also sent right after the change that
         * queued them): rows of a crash, another replica's, retries after {@link #retryAfter}.
         */
        @WithDefault("5s")
        Duration interval();

        /** While no e-mail waits at all, the safety net's delay doubles up to this (docs/decisions.md §105). */
        @WithDefault("30s")
        Duration maxIdleInterval();

        /** Waits before re-sending an e-mail the SMTP server refused, then every later try. */
        @WithDefault("30s")
        Duration retryAfter();
    }

    /** The number of attempts a payment gets automatically: the first plus one per retry. */
    default int automaticAttempts() {
        return retrySchedule().size() + 1;
    }
}
