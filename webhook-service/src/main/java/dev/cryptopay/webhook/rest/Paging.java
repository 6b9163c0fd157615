package dev.cryptopay.webhook.rest;

import dev.cryptopay.support.validation.Validation;

/**
 * {@code limit} and {@code page} of a list endpoint (decisions §5): limit defaults to 20 and is clamped to 100,
 * page starts at 1; a value below 1 or one that is not a whole number is a 400 naming the parameter.
 */
public record Paging(int page, int limit) {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    public static Paging of(String limitParam, String pageParam) {
        Validation validation = new Validation();
        int limit = parse(validation, "limit", limitParam, DEFAULT_LIMIT);
        int page = parse(validation, "page", pageParam, 1);
        validation.throwIfInvalid();
        return new Paging(page, Math.min(limit, MAX_LIMIT));
    }

    /** Rows to skip; may exceed what an int offset can address, in which case the page is simply empty. */
    public long offset() {
        return (long) (page - 1) * limit;
    }

    private static int parse(Validation validation, String field, String value, int defaultValue) {
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed < 1) {
                validation.add(field, "must be at least 1");
            }
            return parsed;
        } catch (NumberFormatException e) {
            validation.add(field, "must be a whole number from 1 to " + Integer.MAX_VALUE);
            return defaultValue;
        }
    }
}
