package dev.cryptopay.reporting.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Filters of the transaction listing, parsed: one account; optionally a merchant, a reference number, statuses and
 * payment statuses (any of), a currency, and sourceCreatedAt in {@code [from, toExclusive)}.
 */
public record TransactionFilter(UUID account, UUID merchant, String referenceNumber, List<Integer> statuses,
        List<Integer> paymentStatuses, String currency, Instant from, Instant toExclusive) {

    /** The WHERE clause over {@code transaction_row t} and its parameters, in order. */
    public record Where(String sql, List<Object> parameters) {
    }

    public Where where() {
        StringBuilder sql = new StringBuilder("t.account_id = ?");
        List<Object> parameters = new ArrayList<>();
        parameters.add(account);
        if (merchant != null) {
            sql.append(" and t.merchant_id = ?");
            parameters.add(merchant);
        }
        if (referenceNumber != null) {
            sql.append(" and t.reference_number = ?");
            parameters.add(referenceNumber);
        }
        in(sql, parameters, "t.status", statuses);
        in(sql, parameters, "t.payment_status", paymentStatuses);
        if (currency != null) {
            sql.append(" and t.currency = ?");
            parameters.add(currency);
        }
        if (from != null) {
            sql.append(" and t.source_created_at >= ?");
            parameters.add(java.sql.Timestamp.from(from));
        }
        if (toExclusive != null) {
            sql.append(" and t.source_created_at < ?");
            parameters.add(java.sql.Timestamp.from(toExclusive));
        }
        return new Where(sql.toString(), parameters);
    }

    /** One value is a plain equality (so the single-column indexes serve it); several an IN list. */
    private static void in(StringBuilder sql, List<Object> parameters, String column, List<Integer> values) {
        if (values == null || values.isEmpty()) {
            return;
        }
        sql.append(" and ").append(column).append(" in (");
        for (int i = 0; i < values.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
            parameters.add(values.get(i).shortValue());
        }
        sql.append(')');
    }
}
