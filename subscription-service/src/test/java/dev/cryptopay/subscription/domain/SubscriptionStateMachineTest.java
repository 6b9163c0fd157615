package dev.cryptopay.subscription.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.subscription.domain.SubscriptionStateMachine.Trigger;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every pair of state and trigger against the table of docs/decisions.md §12. */
class SubscriptionStateMachineTest {

    @ParameterizedTest(name = "{0} --{1} (paid before: {2})--> {3}")
    @CsvSource({
            "CREATED, PAUSE, false, PAUSED",
            "ACTIVE, PAUSE, true, PAUSED",
            "PAYMENT_FAILED, PAUSE, true, PAUSED",
            "PAUSED, PAUSE, true, -",
            "CANCELED, PAUSE, true, -",
            "PAUSED, RESUME, true, ACTIVE",
            "PAUSED, RESUME, false, CREATED",
            "CREATED, RESUME, false, -",
            "ACTIVE, RESUME, true, -",
            "PAYMENT_FAILED, RESUME, true, -",
            "CANCELED, RESUME, true, -",
            "CREATED, CANCEL, false, CANCELED",
            "ACTIVE, CANCEL, true, CANCELED",
            "PAUSED, CANCEL, true, CANCELED",
            "PAYMENT_FAILED, CANCEL, true, CANCELED",
            "CANCELED, CANCEL, true, -",
            "CREATED, BILLING_PAID, false, ACTIVE",
            "PAYMENT_FAILED, BILLING_PAID, true, ACTIVE",
            "ACTIVE, BILLING_PAID, true, -",
            "PAUSED, BILLING_PAID, true, -",
            "CANCELED, BILLING_PAID, true, -",
            "CREATED, BILLING_FAILED, false, PAYMENT_FAILED",
            "ACTIVE, BILLING_FAILED, true, PAYMENT_FAILED",
            "PAYMENT_FAILED, BILLING_FAILED, true, -",
            "PAUSED, BILLING_FAILED, true, -",
            "CANCELED, BILLING_FAILED, true, -"
    })
    void movesExactlyAsDecided(SubscriptionStatus from, Trigger trigger, boolean everPaid, String to) {
        Optional<SubscriptionStatus> expected = "-".equals(to) ? Optional.empty()
                : Optional.of(SubscriptionStatus.valueOf(to));
        assertEquals(expected, SubscriptionStateMachine.next(from, trigger, everPaid));
    }

    @Test
    void theTableAboveCoversEveryStateAndTrigger() {
        int moves = 0;
        for (SubscriptionStatus from : SubscriptionStatus.values()) {
            for (Trigger trigger : Trigger.values()) {
                moves += SubscriptionStateMachine.next(from, trigger, true).isPresent() ? 1 : 0;
            }
        }
        assertEquals(12, moves, "three pauses, one resume, four cancels, two activations, "
                + "two final failures");
        assertEquals(EnumSet.of(SubscriptionStatus.CREATED, SubscriptionStatus.ACTIVE),
                EnumSet.copyOf(java.util.Arrays.stream(SubscriptionStatus.values())
                        .filter(SubscriptionStateMachine::billable).toList()));
    }
}
