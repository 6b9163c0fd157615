package dev.cryptopay.support.problem;

import java.util.List;

/**
 * Thrown by application code for every answer that is not a success. The single mapper in
 * {@link ProblemMappers} turns it into problem+json, so services never build error responses by hand.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final String title;
    private final List<FieldError> errors;
    private final Long retryAfterSeconds;

    public ApiException(int status, String code, String title, String detail, List<FieldError> errors,
            Long retryAfterSeconds) {
        super(detail);
        this.status = status;
        this.code = code;
        this.title = title;
        this.errors = errors == null ? List.of() : List.copyOf(errors);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static ApiException validation(List<FieldError> errors) {
        return new ApiException(400, "validation_failed", "Validation failed",
                "The request has invalid fields; see errors.", errors, null);
    }

    public static ApiException validation(String field, String message) {
        return validation(List.of(new FieldError(field, message)));
    }

    public static ApiException badRequest(String detail) {
        return new ApiException(400, "validation_failed", "Bad request", detail, null, null);
    }

    public static ApiException unauthorized(String detail) {
        return new ApiException(401, "unauthorized", "Unauthorized", detail, null, null);
    }

    public static ApiException forbidden(String detail) {
        return new ApiException(403, "forbidden", "Forbidden", detail, null, null);
    }

    public static ApiException notFound(String what) {
        return new ApiException(404, "not_found", "Not found", what + " was not found.", null, null);
    }

    public static ApiException conflict(String code, String detail) {
        return new ApiException(409, code, "Conflict", detail, null, null);
    }

    public static ApiException unavailable(String detail, long retryAfterSeconds) {
        return new ApiException(503, "service_unavailable", "Service unavailable", detail, null, retryAfterSeconds);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String title() {
        return title;
    }

    public List<FieldError> errors() {
        return errors;
    }

    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public Problem toProblem() {
        return Problem.of(status, code, title, getMessage(), errors);
    }
}
