package dev.cryptopay.reporting.service;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * An account's settlement schedule (settlementFrequency, settlementAnchor): consecutive periods
 * {@code [anchor + k·length, anchor + (k+1)·length)} for every whole k (negative before the anchor). Monthly periods
 * start on the anchor's day and time of each month, counted from the anchor (31 Jan → 28/29 Feb → 31 Mar), in UTC.
 * The same numbering is computed in SQL ({@link #periodSql}) and here ({@link #period}), so the two always agree.
 */
public record SettlementSchedule(String frequency, Instant anchor) {

    public static final List<String> FREQUENCIES = List.of("hourly", "six_hourly", "daily", "weekly", "biweekly",
            "monthly");
    /** Without a configured schedule: daily, at midnight UTC. */
    public static final SettlementSchedule DEFAULT = new SettlementSchedule("daily", Instant.EPOCH);

    public SettlementSchedule {
        if (!FREQUENCIES.contains(frequency)) {
            throw new IllegalArgumentException("unknown settlement frequency " + frequency);
        }
    }

    public static SettlementSchedule of(String frequency, Instant anchor) {
        boolean known = frequency != null && FREQUENCIES.contains(frequency);
        return new SettlementSchedule(known ? frequency : DEFAULT.frequency(),
                anchor == null ? DEFAULT.anchor() : anchor.truncatedTo(ChronoUnit.MICROS));
    }

    public boolean monthly() {
        return "monthly".equals(frequency);
    }

    /** Length of a fixed period (not monthly). */
    public Duration length() {
        return switch (frequency) {
            case "hourly" -> Duration.ofHours(1);
            case "six_hourly" -> Duration.ofHours(6);
            case "daily" -> Duration.ofDays(1);
            case "weekly" -> Duration.ofDays(7);
            case "biweekly" -> Duration.ofDays(14);
            default -> throw new IllegalStateException("monthly periods have no fixed length");
        };
    }

    /** The number of the period holding {@code t}. */
    public long period(Instant t) {
        if (!monthly()) {
            long micros = ChronoUnit.MICROS.between(anchor, t);
            return Math.floorDiv(micros, length().toNanos() / 1000);
        }
        LocalDateTime a = LocalDateTime.ofInstant(anchor, ZoneOffset.UTC);
        LocalDateTime at = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
        long k = (at.getYear() - a.getYear()) * 12L + (at.getMonthValue() - a.getMonthValue());
        return at.isBefore(a.plusMonths(k)) ? k - 1 : k;
    }

    public Instant start(long period) {
        if (!monthly()) {
            return anchor.plus(length().multipliedBy(period));
        }
        return LocalDateTime.ofInstant(anchor, ZoneOffset.UTC).plusMonths(period).toInstant(ZoneOffset.UTC);
    }

    public Instant end(long period) {
        return start(period + 1);
    }

    /**
     * SQL of the period number of a timestamptz {@code column}; its parameters, in order, are
     * {@link #periodSqlParameters()}.
     */
    public String periodSql(String column) {
        if (!monthly()) {
            return "floor(extract(epoch from (" + column + " - ?::timestamptz)) * 1000000 / ?)::bigint";
        }
        String local = "(" + column + " at time zone 'UTC')";
        String k0 = "((extract(year from " + local + ")::int - ?) * 12 + (extract(month from " + local
                + ")::int - ?))";
        return "(" + k0 + " - case when " + local + " < ?::timestamp + make_interval(months => " + k0
                + ") then 1 else 0 end)::bigint";
    }

    public List<Object> periodSqlParameters() {
        if (!monthly()) {
            return List.of(anchor.atOffset(ZoneOffset.UTC), length().toNanos() / 1000);
        }
        LocalDateTime a = LocalDateTime.ofInstant(anchor, ZoneOffset.UTC);
        return List.of(a.getYear(), a.getMonthValue(), a, a.getYear(), a.getMonthValue());
    }
}
