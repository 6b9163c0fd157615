package dev.cryptopay.support.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An RFC 9457 problem document (docs/decisions.md §1). {@code code} is a stable snake_case string clients branch on;
 * {@code errors} is present only for validation failures.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String code, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(int status, String code, String title, String detail, List<FieldError> errors) {
        return new Problem("urn:cryptopay:problem:" + code, title, status, detail, code,
                errors == null || errors.isEmpty() ? null : List.copyOf(errors));
    }
}
