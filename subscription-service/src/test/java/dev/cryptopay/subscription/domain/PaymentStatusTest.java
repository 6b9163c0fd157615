package dev.cryptopay.subscription.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptopay.support.problem.ApiException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every pair of subscription payment states against the table in {@link PaymentStatus}: allowed moves happen, every other is 409 invalid_state. */
class PaymentStatusTest {

    /** The table written out independently of the enum's own. */
    private static final Map<PaymentStatus, Set<PaymentStatus>> ALLOWED = Map.of(
            PaymentStatus.PENDING, EnumSet.of(PaymentStatus.PENDING, PaymentStatus.PARTIALLY_PAID,
                    PaymentStatus.PAID, PaymentStatus.FAILED),
            PaymentStatus.PARTIALLY_PAID, EnumSet.of(PaymentStatus.PARTIALLY_PAID, PaymentStatus.PAID,
                    PaymentStatus.FAILED),
            PaymentStatus.FAILED, EnumSet.of(PaymentStatus.PENDING, PaymentStatus.PARTIALLY_PAID,
                    PaymentStatus.PAID),
            PaymentStatus.PAID, EnumSet.of(PaymentStatus.PAID));

    @Test
    void everyAllowedMoveHappensAndEveryOtherIsRefused() {
        int allowed = 0;
        int refused = 0;
        for (PaymentStatus from : PaymentStatus.values()) {
            for (PaymentStatus to : PaymentStatus.values()) {
                SubscriptionPayment payment = new SubscriptionPayment();
                payment.status = from;
                if (ALLOWED.get(from).contains(to)) {
                    payment.moveTo(to);
                    assertEquals(to, payment.status, from + "→" + to);
                    allowed++;
                } else {
                    ApiException e = assertThrows(ApiException.class, () -> payment.moveTo(to), from + "→" + to);
                    assertEquals(409, e.status(), from + "→" + to);
                    assertEquals("invalid_state", e.code(), from + "→" + to);
                    assertEquals(from, payment.status, "a refused move leaves the status: " + from + "→" + to);
                    refused++;
                }
            }
        }
        assertEquals(11, allowed);
        assertEquals(5, refused);
    }
}
