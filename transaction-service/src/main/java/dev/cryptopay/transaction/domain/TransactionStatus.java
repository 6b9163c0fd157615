package dev.cryptopay.transaction.domain;

import java.util.Set;

/** Transaction {@code status} values (decisions §2). */
public final class TransactionStatus {
    public static final int PENDING = 0;
    public static final int SUCCESS = 1;
    public static final int EXPIRED = -1;
    public static final int CANCELLED = -2;
    public static final int WAITING_FOR_KYC = -3;
    public static final int FORFEITED = -4;

    public static final Set<Integer> ALL = Set.of(PENDING, SUCCESS, EXPIRED, CANCELLED, WAITING_FOR_KYC, FORFEITED);
    /** No move leaves these; cancel answers 409. */
    public static final Set<Integer> FINAL = Set.of(SUCCESS, EXPIRED, CANCELLED, FORFEITED);

    /** Payment request {@code status} (decisions §2). */
    public static final int PR_AWAITING = 0;
    public static final int PR_CONFIRMED = 1;
    public static final int PR_CONFIRMING = 2;
    public static final int PR_UNDERPAID = 3;
    public static final int PR_EXPIRED = -1;
    public static final int PR_CANCELLED = -2;

    /** Transaction {@code paymentStatus} (decisions §2). */
    public static final int UNPAID = 0;
    public static final int PAID = 1;
    public static final int CONFIRMING = 2;
    public static final int PARTIALLY_PAID = 3;
    public static final int OVERPAID = 4;

    private TransactionStatus() {
    }
}
