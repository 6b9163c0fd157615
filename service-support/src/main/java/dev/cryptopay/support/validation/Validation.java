package dev.cryptopay.support.validation;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.problem.FieldError;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Collects field-level errors for one request and throws them together as a 400 (docs/decisions.md §1), so a client
 * learns about every bad field at once. Each check returns this for chaining and skips absent optional values.
 */
public final class Validation {

    /** Default maximum length of request strings (docs/decisions.md §1). */
    public static final int MAX_STRING = 255;
    private static final Pattern HEX_COLOR = Pattern.compile("^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
    private static final Set<String> CURRENCIES = Currency.getAvailableCurrencies().stream()
            .map(Currency::getCurrencyCode).collect(Collectors.toUnmodifiableSet());
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

    /** ISO 3166-1 alpha-2 code from the catalogue (upper case). */
    public Validation country(String field, String value) {
        if (value != null && !Catalogue.get().isCountry(value)) {
            add(field, "must be an ISO 3166-1 alpha-2 country code");
        }
        return this;
    }

    /** ISO 4217 currency code known to the JDK (upper case). */
    public Validation currency(String field, String value) {
        if (value != null && !CURRENCIES.contains(value)) {
            add(field, "must be an ISO 4217 currency code");
        }
        return this;
    }

    /** {@code #RGB} or {@code #RRGGBB}. */
    public Validation hexColor(String field, String value) {
        if (value != null && !HEX_COLOR.matcher(value).matches()) {
            add(field, "must be a hex colour such as #1A2B3C");
        }
        return this;
    }

    /** An absolute http or https URL of at most 2,048 characters. */
    public Validation httpUrl(String field, String value) {
        if (value == null) {
            return this;
        }
        if (value.length() > 2048) {
            return add(field, "must be at most 2048 characters");
        }
        try {
            URI uri = new URI(value);
            if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    || uri.getHost() == null) {
                add(field, "must be an http or https URL");
            }
        } catch (URISyntaxException e) {
            add(field, "must be an http or https URL");
        }
        return this;
    }

    public Validation nonNegative(String field, BigDecimal value) {
        if (value != null && value.signum() < 0) {
            add(field, "must be 0 or more");
        }
        return this;
    }

    /** Within {@code [min, max]}, both inclusive. */
    public Validation between(String field, BigDecimal value, BigDecimal min, BigDecimal max) {
        if (value != null && (value.compareTo(min) < 0 || value.compareTo(max) > 0)) {
            add(field, "must be between " + min.toPlainString() + " and " + max.toPlainString());
        }
        return this;
    }

    public Validation between(String field, Integer value, int min, int max) {
        if (value != null && (value < min || value > max)) {
            add(field, "must be between " + min + " and " + max);
        }
        return this;
    }

    /** An asset code of the catalogue. */
    public Validation asset(String field, String value) {
        if (value != null && Catalogue.get().asset(value).isEmpty()) {
            add(field, "must be one of the assets of GET /assets");
        }
        return this;
    }

    /** A network name of the catalogue. */
    public Validation network(String field, String value) {
        if (value != null && Catalogue.get().network(value).isEmpty()) {
            add(field, "must be a network of GET /assets");
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
