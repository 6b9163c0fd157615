package dev.cryptopay.support.validation;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.problem.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Collects field-level errors for one request and throws them together as a 400 (decisions §1), so a client
 * learns about every bad field at once. Each check returns this for chaining and skips absent optional values.
 */
public final class Validation {

    /** Default maximum length of request strings (decisions §1). */
    public static final int MAX_STRING = 255;
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]{1,64}@[^@\\s]+\\.[^@\\s]{2,}$");

    private final List<FieldError> errors = new ArrayList<>();

    public Validation add(String field, String message) {
        errors.add(new FieldError(field, message));
        return this;
    }

    /** Required string: present, not blank, at most {@value #MAX_STRING} characters. */
    public Validation requiredText(String field, String value) {
        if (value == null || value.isBlank()) {
            return add(field, "is required");
        }
        return text(field, value, MAX_STRING);
    }

    /** Optional string of at most {@code max} characters. */
    public Validation text(String field, String value, int max) {
        if (value != null && value.length() > max) {
            add(field, "must be at most " + max + " characters");
        }
        return this;
    }

    public Validation email(String field, String value) {
        if (value != null && !value.isBlank() && !EMAIL.matcher(value).matches()) {
            add(field, "must be an e-mail address");
        }
        return text(field, value, MAX_STRING);
    }

    public Validation oneOf(String field, String value, List<String> allowed) {
        if (value != null && !allowed.contains(value)) {
            add(field, "must be one of " + String.join(", ", allowed));
        }
        return this;
    }

    public Validation required(String field, Object value) {
        if (value == null) {
            add(field, "is required");
        }
        return this;
    }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** Throws a 400 {@code validation_failed} naming every invalid field, if there is one. */
    public void throwIfInvalid() {
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
    }
}
