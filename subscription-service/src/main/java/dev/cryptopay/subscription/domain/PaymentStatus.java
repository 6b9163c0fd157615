package dev.cryptopay.subscription.domain;

import dev.cryptopay.support.problem.ApiException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Subscription payment states of the interface document, and the one table of the moves a payment may make;
 * {@link SubscriptionPayment#moveTo} refuses any other with 409 {@code invalid_state}.
 *
 * <pre>
 *   PENDING         → PARTIALLY_PAID (short funds), PAID, FAILED (attempts exhausted), PENDING (an attempt failed,
 *                     another is scheduled)
 *   PARTIALLY_PAID  → PAID, FAILED, PARTIALLY_PAID (an attempt failed, another is scheduled)
 *   FAILED          → PENDING or PARTIALLY_PAID (a retry through the API), PAID (funds of the last attempt confirmed
 *                     after it was given up)
 *   PAID            final (a second confirmation of the same payment leaves it PAID)
 * </pre>
 */
public enum PaymentStatus {
    PAID, PENDING, PARTIALLY_PAID, FAILED;

    private static final Map<PaymentStatus, Set<PaymentStatus>> MOVES = Map.of(
            PENDING, EnumSet.of(PENDING, PARTIALLY_PAID, PAID, FAILED),
            PARTIALLY_PAID, EnumSet.of(PARTIALLY_PAID, PAID, FAILED),
            FAILED, EnumSet.of(PENDING, PARTIALLY_PAID, PAID),
            PAID, EnumSet.of(PAID));

    public boolean canMoveTo(PaymentStatus next) {
        return MOVES.get(this).contains(next);
    }

    /** {@code next} when the table allows the move; else 409 invalid_state. */
    public PaymentStatus moveTo(PaymentStatus next) {
        if (!canMoveTo(next)) {
            throw ApiException.conflict("invalid_state",
                    "A subscription payment in status " + this + " cannot move to " + next + ".");
        }
        return next;
    }
}
