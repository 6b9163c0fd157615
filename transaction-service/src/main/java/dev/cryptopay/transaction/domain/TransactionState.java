package dev.cryptopay.transaction.domain;

import dev.cryptopay.support.problem.ApiException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Transaction {@code status} (docs/decisions.md §2) with its wire value, and the one table of the moves a transaction may
 * make; {@link Transaction#moveTo} refuses any other with 409 {@code invalid_state}.
 *
 * <pre>
 *   -3 waiting for KYC → 0 (verification accepted), -2 (cancel), -1 (expiry)
 *    0 pending         → 1 (funds cover the amount), -2 (cancel), -4 (cancel with forfeit), -1 (expiry),
 *                        -3 (a payer wallet that screening marks custodial; compliance)
 *    1, -1, -2, -4     final
 * </pre>
 */
public enum TransactionState {
    PENDING(0), SUCCESS(1), EXPIRED(-1), CANCELLED(-2), WAITING_FOR_KYC(-3), FORFEITED(-4);

    private static final Map<TransactionState, Set<TransactionState>> MOVES = Map.of(
            WAITING_FOR_KYC, EnumSet.of(PENDING, CANCELLED, EXPIRED),
            PENDING, EnumSet.of(SUCCESS, CANCELLED, FORFEITED, EXPIRED, WAITING_FOR_KYC),
            SUCCESS, EnumSet.noneOf(TransactionState.class),
            EXPIRED, EnumSet.noneOf(TransactionState.class),
            CANCELLED, EnumSet.noneOf(TransactionState.class),
            FORFEITED, EnumSet.noneOf(TransactionState.class));

    private final int wire;

    TransactionState(int wire) {
        this.wire = wire;
    }

    public int wire() {
        return wire;
    }

    public static TransactionState of(int wire) {
        return Arrays.stream(values()).filter(s -> s.wire == wire).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no transaction status " + wire));
    }

    public boolean canMoveTo(TransactionState next) {
        return MOVES.get(this).contains(next);
    }

    /** {@code next} when the table allows the move; else 409 invalid_state. */
    public TransactionState moveTo(TransactionState next) {
        if (!canMoveTo(next)) {
            throw ApiException.conflict("invalid_state", isFinal()
                    ? "The transaction is final (status " + wire + ")."
                    : "A transaction in status " + wire + " cannot move to status " + next.wire + ".");
        }
        return next;
    }

    /** No move leaves a final state: cancel answers 409. */
    public boolean isFinal() {
        return MOVES.get(this).isEmpty();
    }
}
