package dev.cryptopay.transaction.view;

import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Refund;
import dev.cryptopay.transaction.domain.Transaction;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The payment requests, transfers and refunds of several transactions, read in one query each (a page of the listing,
 * a batch of expiry) rather than three per transaction, each transaction's rows in the order
 * {@link TransactionViews#load} reads them.
 */
public final class TransactionRows {

    private final Map<UUID, List<PaymentRequest>> payments;
    private final Map<UUID, List<PaymentTransfer>> transfers;
    private final Map<UUID, List<Refund>> refunds;

    private TransactionRows(Collection<UUID> transactionIds) {
        payments = byTransaction(PaymentRequest.ofTransactions(transactionIds), p -> p.transactionId);
        transfers = byTransaction(PaymentTransfer.ofTransactions(transactionIds), t -> t.transactionId);
        refunds = byTransaction(Refund.ofTransactions(transactionIds), r -> r.transactionId);
    }

    public static TransactionRows of(List<Transaction> transactions) {
        return new TransactionRows(transactions.stream().map(tx -> tx.id).toList());
    }

    public List<PaymentRequest> payments(Transaction tx) {
        return payments.getOrDefault(tx.id, List.of());
    }

    public List<PaymentTransfer> transfers(Transaction tx) {
        return transfers.getOrDefault(tx.id, List.of());
    }

    public List<Refund> refunds(Transaction tx) {
        return refunds.getOrDefault(tx.id, List.of());
    }

    /** The transaction's view, as {@link TransactionViews#load} would build it, from these rows. */
    public TransactionView view(Transaction tx) {
        return TransactionViews.of(tx, payments(tx), transfers(tx), refunds(tx));
    }

    private static <T> Map<UUID, List<T>> byTransaction(List<T> rows, Function<T, UUID> transactionId) {
        return rows.stream().collect(Collectors.groupingBy(transactionId));
    }
}
