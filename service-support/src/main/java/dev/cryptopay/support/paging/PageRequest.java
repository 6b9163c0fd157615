package dev.cryptopay.support.paging;

import dev.cryptopay.support.validation.Validation;

/**
 * {@code limit} and {@code page} of a list endpoint (docs/decisions.md §5): limit defaults to 20 and is clamped to
 * 100, page starts at 1; a limit or page below 1, or one that is not a whole number, is a 400 naming it. A page
 * that starts beyond {@link #MAX_OFFSET} items is a 400 on {@code page} too (no listing is that long, and the
 * offset must fit the database's and Panache's integer arithmetic).
 */
public record PageRequest(int page, int limit) {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;
    /** The furthest a page may start: (page − 1) × limit at most ten million items. */
    public static final long MAX_OFFSET = 10_000_000;

    /** Parses the raw query values (null when absent). */
    public static PageRequest of(String limit, String page) {
        Validation validation = new Validation();
        Integer parsedLimit = parse("limit", limit, DEFAULT_LIMIT, validation);
        Integer parsedPage = parse("page", page, 1, validation);
        validation.throwIfInvalid();
        int clamped = Math.min(parsedLimit, MAX_LIMIT);
        if ((long) (parsedPage - 1) * clamped > MAX_OFFSET) {
            validation.add("page", "starts beyond item " + MAX_OFFSET + " (page × limit is too large)");
            validation.throwIfInvalid();
        }
        return new PageRequest(parsedPage, clamped);
    }

    /** Zero-based index of the page, for Panache's {@code Page.of}. */
    public int index() {
        return page - 1;
    }

    public long offset() {
        return (long) (page - 1) * limit;
    }

    public PageMetadata metadata(long totalCount, int count) {
        return new PageMetadata(totalCount, count, page, limit);
    }

    private static Integer parse(String field, String raw, int fallback, Validation validation) {
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        try {
            long value = Long.parseLong(raw.strip());
            if (value < 1) {
                validation.add(field, "must be at least 1");
                return fallback;
            }
            return (int) Math.min(value, Integer.MAX_VALUE);
        } catch (NumberFormatException e) {
            validation.add(field, "must be a whole number");
            return fallback;
        }
    }
}
