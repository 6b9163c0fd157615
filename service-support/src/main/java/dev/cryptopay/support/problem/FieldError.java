package dev.cryptopay.support.problem;

/** One invalid request field: {@code field} is a JSON path such as {@code amounts.totalLocal}. */
public record FieldError(String field, String message) {
}
