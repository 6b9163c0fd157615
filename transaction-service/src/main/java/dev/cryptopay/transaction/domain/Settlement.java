package dev.cryptopay.transaction.domain;

import dev.cryptopay.transaction.quote.Money;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The money rules of detection (docs/decisions.md §2), as one pure function of a transaction, its payment requests and
 * the transfers seen to their addresses — so a watcher pass, a reorganisation and a restart all arrive at the
 * same state from the same transfers, and nothing is counted twice.
 *
 * <ul>
 * <li>A request's {@code receivedCrypto} is the sum of its transfers still on the chain (confirming or confirmed),
 * {@code receivedUSD} that at the request's locked rate; {@code txnHash}/{@code fromAddress} are the first
 * transfer's, {@code confirmationCount} the least-confirmed transfer's.</li>
 * <li>Request status: 2 while a transfer is confirming; when all are confirmed, 1 if they cover
 * {@code expectedCrypto}, else 3 underpaid. A request that ended (-1, -2) keeps its status.</li>
 * <li>A <em>late</em> transfer (first seen after its request or transaction ended) is recorded and counted in the
 * received amounts, so it stays visible and refundable, but it never changes a status.</li>
 * <li>The transaction's {@code receivedUSD} is its confirmed funds; it becomes 1 (success) from 0 when confirmed
 * on-time funds cover the amount due, {@code totalUSD + customerFeeUSD}.</li>
 * <li>{@code paymentStatus}: 0 nothing seen, 2 confirming, 3 partially paid, 1 paid, 4 overpaid (confirmed funds
 * exceed the amount due by a cent or more; rounding a quote up to the asset's smallest unit is not overpaying).</li>
 * <li>A transaction held for compliance review never succeeds here (docs/decisions.md §59); with
 * {@code holdOverpayment} (the account's {@code autoRefundConfig.overpayment} off) one that would succeed overpaid is
 * held instead.</li>
 * </ul>
 */
public final class Settlement {

    private static final BigDecimal CENT = new BigDecimal("0.01");

    private Settlement() {
    }

    /** What changed: whether the transaction just succeeded, or was just held as overpaid. */
    public record Outcome(boolean succeeded, boolean heldOverpaid) {

        public Outcome(boolean succeeded) {
            this(succeeded, false);
        }
    }

    public static Outcome apply(Transaction tx, List<PaymentRequest> requests, List<PaymentTransfer> transfers) {
        return apply(tx, requests, transfers, false);
    }

    public static Outcome apply(Transaction tx, List<PaymentRequest> requests, List<PaymentTransfer> transfers,
            boolean holdOverpayment) {
        Map<UUID, List<PaymentTransfer>> byRequest = transfers.stream()
                .filter(PaymentTransfer::counts)
                .collect(Collectors.groupingBy(t -> t.paymentRequestId));
        BigDecimal confirmedUSD = BigDecimal.ZERO;
        BigDecimal confirmedOnTimeUSD = BigDecimal.ZERO;
        boolean anySeen = false;
        boolean anyConfirming = false;
        for (PaymentRequest request : requests) {
            List<PaymentTransfer> seen = byRequest.getOrDefault(request.id, List.of());
            applyToRequest(request, seen);
            anySeen |= !seen.isEmpty();
            anyConfirming |= seen.stream().anyMatch(t -> t.status == PaymentTransfer.CONFIRMING);
            confirmedUSD = confirmedUSD.add(usd(request, sum(seen, false, true)));
            confirmedOnTimeUSD = confirmedOnTimeUSD.add(usd(request, sum(seen, true, true)));
        }
        BigDecimal due = due(tx);
        tx.receivedUSD = Money.usd(confirmedUSD);
        if (!anySeen) {
            tx.paymentStatus = PaymentStatus.UNPAID.wire();
        } else if (confirmedUSD.compareTo(due) >= 0) {
            tx.paymentStatus = confirmedUSD.subtract(due).compareTo(CENT) >= 0 ? PaymentStatus.OVERPAID.wire()
                    : PaymentStatus.PAID.wire();
        } else if (anyConfirming) {
            tx.paymentStatus = PaymentStatus.CONFIRMING.wire();
        } else {
            tx.paymentStatus = PaymentStatus.PARTIALLY_PAID.wire();
        }
        if (tx.state() == TransactionState.PENDING && !tx.heldForReview && confirmedOnTimeUSD.compareTo(due) >= 0) {
            if (holdOverpayment && tx.paymentStatus == PaymentStatus.OVERPAID.wire()) {
                tx.heldForReview = true;
                return new Outcome(false, true);
            }
            tx.moveTo(TransactionState.SUCCESS);
            tx.succeededAt = lastConfirmation(byRequest.values().stream().flatMap(List::stream)
                    .filter(t -> !t.late).toList());
            return new Outcome(true);
        }
        return new Outcome(false);
    }

    /** What the customer owes in all: the order total plus the customer fee. */
    public static BigDecimal due(Transaction tx) {
        return tx.totalUSD.add(tx.customerFeeUSD);
    }

    /** USD of funds still on the chain and not late, at each request's locked rate: what a new quote deducts. */
    public static BigDecimal seenOnTimeUSD(List<PaymentRequest> requests, List<PaymentTransfer> transfers) {
        BigDecimal total = BigDecimal.ZERO;
        for (PaymentRequest request : requests) {
            List<PaymentTransfer> own = transfers.stream()
                    .filter(t -> t.counts() && t.paymentRequestId.equals(request.id)).toList();
            total = total.add(usd(request, sum(own, true, false)));
        }
        return total;
    }

    private static void applyToRequest(PaymentRequest request, List<PaymentTransfer> seen) {
        request.receivedCrypto = sum(seen, false, false);
        request.receivedUSD = Money.usd(usd(request, request.receivedCrypto));
        PaymentTransfer first = seen.stream().min(Comparator.comparing((PaymentTransfer t) -> t.detectedAt)
                .thenComparing(t -> t.txnHash).thenComparingInt(t -> t.position)).orElse(null);
        request.txnHash = first == null ? null : first.txnHash;
        request.fromAddress = first == null ? null : first.fromAddress;
        request.confirmationCount = seen.stream().mapToInt(t -> t.confirmations).min().orElse(0);
        if (request.state() == PaymentRequestState.EXPIRED || request.state() == PaymentRequestState.CANCELLED) {
            return;
        }
        List<PaymentTransfer> onTime = seen.stream().filter(t -> !t.late).toList();
        if (onTime.isEmpty()) {
            request.moveTo(PaymentRequestState.AWAITING);
        } else if (onTime.stream().anyMatch(t -> t.status == PaymentTransfer.CONFIRMING)) {
            request.moveTo(PaymentRequestState.CONFIRMING);
        } else {
            request.moveTo(sum(onTime, true, true).compareTo(request.expectedCrypto) >= 0
                    ? PaymentRequestState.CONFIRMED : PaymentRequestState.UNDERPAID);
        }
        boolean completed = request.state() == PaymentRequestState.CONFIRMED
                || request.state() == PaymentRequestState.UNDERPAID;
        request.completedAt = completed ? lastConfirmation(onTime) : null;
    }

    /** The latest confirmation among confirmed transfers (null when none is confirmed). */
    private static OffsetDateTime lastConfirmation(List<PaymentTransfer> transfers) {
        return transfers.stream().filter(t -> t.status == PaymentTransfer.CONFIRMED && t.confirmedAt != null)
                .map(t -> t.confirmedAt).max(Comparator.naturalOrder()).orElse(null);
    }

    private static BigDecimal sum(List<PaymentTransfer> transfers, boolean onTimeOnly, boolean confirmedOnly) {
        return transfers.stream()
                .filter(t -> !onTimeOnly || !t.late)
                .filter(t -> !confirmedOnly || t.status == PaymentTransfer.CONFIRMED)
                .map(t -> t.amount)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    private static BigDecimal usd(PaymentRequest request, BigDecimal crypto) {
        return crypto.multiply(request.cryptoFXRate);
    }
}
