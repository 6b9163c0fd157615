package dev.cryptopay.transaction.domain;

import dev.cryptopay.support.problem.ApiException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Refund {@code status} (docs/decisions.md §2) with its wire value, and the one table of allowed moves: pending → broadcast
 * → completed, and failed from pending or broadcast. Completed and failed are final; any other move is refused with
 * 409 {@code invalid_state}.
 */
public enum RefundStatus {
    PENDING(0), BROADCAST(2), COMPLETED(1), FAILED(-1);

    private static final Map<RefundStatus, Set<RefundStatus>> MOVES = Map.of(
            PENDING, EnumSet.of(BROADCAST, FAILED),
            BROADCAST, EnumSet.of(COMPLETED, FAILED),
            COMPLETED, EnumSet.noneOf(RefundStatus.class),
            FAILED, EnumSet.noneOf(RefundStatus.class));

    private final int wire;

    RefundStatus(int wire) {
        this.wire = wire;
    }

    public int wire() {
        return wire;
    }

    public static RefundStatus of(int wire) {
        return Arrays.stream(values()).filter(s -> s.wire == wire).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no refund status " + wire));
    }

    public boolean canMoveTo(RefundStatus next) {
        return MOVES.get(this).contains(next);
    }

    /** {@code next}, when the table allows the move from here; else 409 invalid_state. */
    public RefundStatus moveTo(RefundStatus next) {
        if (!canMoveTo(next)) {
            throw ApiException.conflict("invalid_state",
                    "A refund in status " + wire + " cannot move to status " + next.wire + ".");
        }
        return next;
    }

    public boolean isFinal() {
        return MOVES.get(this).isEmpty();
    }
}
