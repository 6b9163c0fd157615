package dev.cryptopay.subscription.service;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.subscription.domain.BillingCalendar;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionEvent;
import dev.cryptopay.subscription.domain.SubscriptionEventType;
import dev.cryptopay.subscription.domain.SubscriptionPayment;
import dev.cryptopay.subscription.domain.SubscriptionStateMachine;
import dev.cryptopay.subscription.domain.SubscriptionStateMachine.Trigger;
import dev.cryptopay.subscription.domain.SubscriptionStatus;
import dev.cryptopay.support.problem.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * Moves subscriptions through {@link SubscriptionStateMachine}, with what every move brings along: its history event
 * (with the reason), its event on payments.subscriptions.v1, and the billing side effects of resume and cancel.
 * The caller holds the subscription's row lock.
 */
@ApplicationScoped
public class Lifecycle {

    private final BillingClock clock;
    private final SubscriptionEvents events;

    public Lifecycle(BillingClock clock, SubscriptionEvents events) {
        this.clock = clock;
        this.events = events;
    }

    /** Records the CREATED history event and publishes subscription.created. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void created(Subscription subscription) {
        record(subscription, SubscriptionEventType.CREATED, null, subscription.createdAt);
        events.subscription(EventTypes.SUBSCRIPTION_CREATED, subscription);
    }

    /** A move asked for through the API: one the state machine does not have is 409 {@code invalid_state}. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void request(Subscription subscription, Trigger trigger, String reason) {
        if (!move(subscription, trigger, reason)) {
            throw ApiException.conflict("invalid_state", "A subscription in " + subscription.status
                    + " cannot be " + verb(trigger) + ".");
        }
    }

    /**
     * Makes the move when the state machine has it and answers whether it did (billing outcomes: a payment paid
     * while the subscription is paused leaves it paused).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean move(Subscription subscription, Trigger trigger, String reason) {
        Optional<SubscriptionStatus> next = SubscriptionStateMachine.next(subscription.status, trigger,
                subscription.everPaid);
        if (next.isEmpty()) {
            return false;
        }
        OffsetDateTime now = clock.now();
        subscription.status = next.get();
        subscription.updatedAt = now;
        switch (trigger) {
            case RESUME -> skipPausedPeriods(subscription, now);
            case CANCEL -> stopBilling(subscription);
            default -> {
            }
        }
        record(subscription, trigger.event(), reason, now);
        String type = switch (trigger) {
            case PAUSE -> EventTypes.SUBSCRIPTION_PAUSED;
            case RESUME -> EventTypes.SUBSCRIPTION_RESUMED;
            case CANCEL -> EventTypes.SUBSCRIPTION_CANCELED;
            case BILLING_FAILED -> EventTypes.SUBSCRIPTION_PAYMENT_FAILED;
            case BILLING_PAID -> null; // subscription_payment.paid tells it
        };
        if (type != null) {
            events.subscription(type, subscription);
        }
        return true;
    }

    /** A resumed subscription bills from its next due date on: the periods that fell into the pause are skipped. */
    private static void skipPausedPeriods(Subscription s, OffsetDateTime now) {
        if (s.openPaymentId != null) {
            return; // the period being billed stays as it is
        }
        s.nextPeriod = BillingCalendar.firstPeriodNotBefore(s.anchorAt.toInstant(), s.billingInterval,
                s.nextPeriod, now.toInstant());
        s.nextBillingAt = BillingCalendar.date(s.anchorAt.toInstant(), s.billingInterval, s.nextPeriod)
                .atOffset(now.getOffset());
    }

    /** Nothing more is billed or retried; an attempt already open may still be paid (its payment then shows PAID). */
    private static void stopBilling(Subscription s) {
        s.nextBillingAt = null;
        if (s.openPaymentId != null) {
            SubscriptionPayment open = SubscriptionPayment.findById(s.openPaymentId);
            if (open != null) {
                open.nextAttemptAt = null;
            }
        }
    }

    private static void record(Subscription s, SubscriptionEventType type, String reason, OffsetDateTime at) {
        SubscriptionEvent event = new SubscriptionEvent();
        event.subscriptionId = s.id;
        event.type = type;
        event.reason = reason;
        event.createdAt = at;
        event.persist();
    }

    private static String verb(Trigger trigger) {
        return switch (trigger) {
            case PAUSE -> "paused";
            case RESUME -> "resumed";
            case CANCEL -> "canceled";
            case BILLING_PAID -> "activated";
            case BILLING_FAILED -> "marked PAYMENT_FAILED";
        };
    }
}
