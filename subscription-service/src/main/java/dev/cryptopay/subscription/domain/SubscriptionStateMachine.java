package dev.cryptopay.subscription.domain;

import java.util.Optional;

/**
 * The one place that decides which subscription moves exist (docs/decisions.md §12); every other class asks it.
 *
 * <table>
 * <caption>Moves</caption>
 * <tr><th>Trigger</th><th>From</th><th>To</th><th>Event</th></tr>
 * <tr><td>PAUSE (API)</td><td>CREATED, ACTIVE, PAYMENT_FAILED</td><td>PAUSED</td><td>PAUSED</td></tr>
 * <tr><td>RESUME (API)</td><td>PAUSED</td><td>ACTIVE, or CREATED if never paid</td><td>RESUMED</td></tr>
 * <tr><td>CANCEL (API)</td><td>all but CANCELED</td><td>CANCELED</td><td>CANCELED</td></tr>
 * <tr><td>BILLING_PAID</td><td>CREATED, PAYMENT_FAILED</td><td>ACTIVE</td><td>ACTIVATED</td></tr>
 * <tr><td>BILLING_FAILED (attempts exhausted)</td><td>CREATED, ACTIVE</td><td>PAYMENT_FAILED</td>
 * <td>PAYMENT_FAILED</td></tr>
 * </table>
 *
 * Any other move is refused: the API answers 409 {@code invalid_state}; a billing outcome that finds the subscription
 * elsewhere (a payment paid while paused or after cancelling, for instance) leaves its status as it is.
 */
public final class SubscriptionStateMachine {

    public enum Trigger {
        PAUSE(SubscriptionEventType.PAUSED),
        RESUME(SubscriptionEventType.RESUMED),
        CANCEL(SubscriptionEventType.CANCELED),
        BILLING_PAID(SubscriptionEventType.ACTIVATED),
        BILLING_FAILED(SubscriptionEventType.PAYMENT_FAILED);

        private final SubscriptionEventType event;

        Trigger(SubscriptionEventType event) {
            this.event = event;
        }

        /** The history event a move by this trigger records. */
        public SubscriptionEventType event() {
            return event;
        }
    }

    private SubscriptionStateMachine() {
    }

    /**
     * The state {@code trigger} moves a subscription in {@code from} to, or empty when that move does not exist.
     *
     * @param everPaid whether a billing of the subscription was ever paid (decides RESUME's target)
     */
    public static Optional<SubscriptionStatus> next(SubscriptionStatus from, Trigger trigger, boolean everPaid) {
        SubscriptionStatus to = switch (trigger) {
            case PAUSE -> from == SubscriptionStatus.CREATED || from == SubscriptionStatus.ACTIVE
                    || from == SubscriptionStatus.PAYMENT_FAILED ? SubscriptionStatus.PAUSED : null;
            case RESUME -> from == SubscriptionStatus.PAUSED
                    ? (everPaid ? SubscriptionStatus.ACTIVE : SubscriptionStatus.CREATED) : null;
            case CANCEL -> from != SubscriptionStatus.CANCELED ? SubscriptionStatus.CANCELED : null;
            case BILLING_PAID -> from == SubscriptionStatus.CREATED || from == SubscriptionStatus.PAYMENT_FAILED
                    ? SubscriptionStatus.ACTIVE : null;
            case BILLING_FAILED -> from == SubscriptionStatus.CREATED || from == SubscriptionStatus.ACTIVE
                    ? SubscriptionStatus.PAYMENT_FAILED : null;
        };
        return Optional.ofNullable(to);
    }

    /** Whether the billing job bills a subscription in this state when it is due. */
    public static boolean billable(SubscriptionStatus status) {
        return status == SubscriptionStatus.CREATED || status == SubscriptionStatus.ACTIVE;
    }
}
