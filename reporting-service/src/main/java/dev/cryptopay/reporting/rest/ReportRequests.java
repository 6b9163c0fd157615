package dev.cryptopay.reporting.rest;

import dev.cryptopay.reporting.service.TransactionFilter;
import dev.cryptopay.support.time.QueryTime;
import dev.cryptopay.support.validation.Validation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Query parameters of the reporting endpoints, checked (docs/decisions.md §1, §5): every bad one is a 400 naming it. */
final class ReportRequests {

    /** Reporting pagination (docs/decisions.md §5): limit default 50, at most 1000 (larger is clamped); offset ≥ 0. */
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 1000;
    static final List<Integer> STATUSES = List.of(0, 1, -1, -2, -3, -4);
    static final List<Integer> PAYMENT_STATUSES = List.of(0, 1, 2, 3, 4);

    record Paging(int limit, long offset) {
    }

    record Range(Instant from, Instant toExclusive) {
    }

    private ReportRequests() {
    }

    static Paging paging(Validation v, String limit, String offset) {
        int parsedLimit = DEFAULT_LIMIT;
        long parsedOffset = 0;
        if (limit != null && !limit.isBlank()) {
            try {
                long value = Long.parseLong(limit.strip());
                if (value < 1) {
                    v.add("limit", "must be at least 1");
                } else {
                    parsedLimit = (int) Math.min(value, MAX_LIMIT);
                }
            } catch (NumberFormatException e) {
                v.add("limit", "must be a whole number");
            }
        }
        if (offset != null && !offset.isBlank()) {
            try {
                parsedOffset = Long.parseLong(offset.strip());
                if (parsedOffset < 0) {
                    v.add("offset", "must be 0 or more");
                }
            } catch (NumberFormatException e) {
                v.add("offset", "must be a whole number");
            }
        }
        return new Paging(parsedLimit, parsedOffset);
    }

    static Range range(Validation v, String fromDate, String toDate) {
        Instant from = QueryTime.start(v, "fromDate", fromDate);
        Instant to = QueryTime.endExclusive(v, "toDate", toDate);
        if (from != null && to != null && !from.isBefore(to)) {
            v.add("toDate", "must not be before fromDate");
        }
        return new Range(from, to);
    }

    static UUID merchant(Validation v, String merchantID) {
        if (merchantID == null || merchantID.isBlank()) {
            return null;
        }
        try {
            return UUID.fromString(merchantID.strip());
        } catch (IllegalArgumentException e) {
            v.add("merchantID", "must be a merchant UUID");
            return null;
        }
    }

    static TransactionFilter filter(UUID account, String merchantID, String referenceNumber, List<String> statuses,
            List<String> paymentStatuses, String currency, String fromDate, String toDate, Validation v) {
        UUID merchant = merchant(v, merchantID);
        v.text("referenceNumber", referenceNumber, Validation.MAX_STRING);
        List<Integer> status = numbers(v, "statuses", statuses, STATUSES);
        List<Integer> paymentStatus = numbers(v, "paymentStatuses", paymentStatuses, PAYMENT_STATUSES);
        String code = currency == null || currency.isBlank() ? null : currency.strip();
        v.currency("currency", code);
        Range range = range(v, fromDate, toDate);
        return new TransactionFilter(account, merchant,
                referenceNumber == null || referenceNumber.isBlank() ? null : referenceNumber, status, paymentStatus,
                code, range.from(), range.toExclusive());
    }

    /** A repeatable parameter; each occurrence may also hold a comma-separated list. */
    private static List<Integer> numbers(Validation v, String field, List<String> raw, List<Integer> allowed) {
        List<Integer> values = new ArrayList<>();
        if (raw == null) {
            return values;
        }
        for (String occurrence : raw) {
            for (String part : occurrence.split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                try {
                    int value = Integer.parseInt(part.strip());
                    if (!allowed.contains(value)) {
                        v.add(field, "must be among " + allowed);
                        return values;
                    }
                    if (!values.contains(value)) {
                        values.add(value);
                    }
                } catch (NumberFormatException e) {
                    v.add(field, "must be among " + allowed);
                    return values;
                }
            }
        }
        return values;
    }
}
