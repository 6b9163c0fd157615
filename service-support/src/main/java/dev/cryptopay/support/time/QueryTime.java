package dev.cryptopay.support.time;

import dev.cryptopay.support.validation.Validation;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Time bounds of list queries (docs/decisions.md §5): an RFC 3339 timestamp or a {@code YYYY-MM-DD} date, in UTC. A start
 * bound is inclusive. An end bound is returned exclusive: a date ends before the next day (so the whole day is
 * included), a timestamp one microsecond after itself (so it is included). A malformed value is a field error.
 */
public final class QueryTime {

    private QueryTime() {
    }

    /** The inclusive start bound, or null when absent or malformed (then {@code v} holds the error). */
    public static Instant start(Validation v, String field, String raw) {
        return parse(v, field, raw, false);
    }

    /** The exclusive end bound, or null when absent or malformed (then {@code v} holds the error). */
    public static Instant endExclusive(Validation v, String field, String raw) {
        return parse(v, field, raw, true);
    }

    private static Instant parse(Validation v, String field, String raw, boolean end) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        String value = raw.strip();
        try {
            if (value.length() == 10) {
                LocalDate date = LocalDate.parse(value);
                return (end ? date.plusDays(1) : date).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            Instant instant = OffsetDateTime.parse(value).toInstant();
            return end ? instant.truncatedTo(ChronoUnit.MICROS).plus(1, ChronoUnit.MICROS) : instant;
        } catch (DateTimeParseException e) {
            v.add(field, "must be an RFC 3339 timestamp (2026-11-21T10:00:00Z) or a date (2026-11-21)");
            return null;
        }
    }
}
