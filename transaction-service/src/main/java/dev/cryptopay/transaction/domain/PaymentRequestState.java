package dev.cryptopay.transaction.domain;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Payment request {@code status} (docs/decisions.md §2) with its wire value and the moves detection, expiry and cancel may
 * make. Detection recomputes a request from its transfers on every pass, so the moves among 0, 2, 1 and 3 follow
 * the chain both ways (a reorganisation can drop a confirming transfer; a further transfer to a paid address
 * confirms anew); expiry and cancel end only a request still awaiting funds.
 */
public enum PaymentRequestState {
    AWAITING(0), CONFIRMED(1), CONFIRMING(2), UNDERPAID(3), EXPIRED(-1), CANCELLED(-2);

    private static final Map<PaymentRequestState, Set<PaymentRequestState>> MOVES = Map.of(
            AWAITING, EnumSet.of(CONFIRMING, CONFIRMED, UNDERPAID, EXPIRED, CANCELLED),
            CONFIRMING, EnumSet.of(AWAITING, CONFIRMED, UNDERPAID),
            CONFIRMED, EnumSet.of(CONFIRMING),
            UNDERPAID, EnumSet.of(CONFIRMING, CONFIRMED),
            EXPIRED, EnumSet.noneOf(PaymentRequestState.class),
            CANCELLED, EnumSet.noneOf(PaymentRequestState.class));

    private final int wire;

    PaymentRequestState(int wire) {
        this.wire = wire;
    }

    public int wire() {
        return wire;
    }

    public static PaymentRequestState of(int wire) {
        return Arrays.stream(values()).filter(s -> s.wire == wire).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no payment request status " + wire));
    }

    public boolean canMoveTo(PaymentRequestState next) {
        return MOVES.get(this).contains(next);
    }

    public boolean isFinal() {
        return MOVES.get(this).isEmpty();
    }
}
