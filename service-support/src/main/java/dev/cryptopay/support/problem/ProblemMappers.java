package dev.cryptopay.support.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpClosedException;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one error mapping of the suite: every failure leaves a service as problem+json (docs/decisions.md §1).
 * Nothing of the exception itself (class names, SQL, stack traces) reaches the client; unexpected
 * failures are logged here with the request's id and answered with a generic 500; a lost database connection with a
 * 503 and Retry-After (docs/decisions.md §131).
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response api(ApiException e) {
        Response.ResponseBuilder builder = respond(e.toProblem());
        if (e.retryAfterSeconds() != null) {
            builder.header("Retry-After", e.retryAfterSeconds());
        }
        return builder.build();
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        return respond(JsonProblems.of(e)).build();
    }

    /** Quarkus ships its own mappers for these subtypes; these keep the suite's problem+json form. */
    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response invalidFormat(InvalidFormatException e) {
        return json(e);
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        List<FieldError> errors = e.getConstraintViolations().stream()
                .map(v -> new FieldError(leafPath(v.getPropertyPath().toString()), v.getMessage()))
                .sorted(java.util.Comparator.comparing(FieldError::field))
                .toList();
        return respond(ApiException.validation(errors).toProblem()).build();
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e) {
        return respond(ApiException.unauthorized("A valid internal identity token is required.").toProblem()).build();
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e) {
        return respond(ApiException.unauthorized("The internal identity token is invalid or expired.").toProblem())
                .build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return respond(ApiException.forbidden("This key may not perform this operation.").toProblem()).build();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status == 400 && e.getCause() instanceof JsonProcessingException parse) {
            // Quarkus wraps parse errors (not JSON, trailing content, duplicate keys, bad UTF-8, a failing
            // constructor) in a 400 WebApplicationException.
            return respond(JsonProblems.of(parse)).build();
        }
        if (status >= 500) {
            LOG.error("request failed", e);
        }
        String code = switch (status) {
            case 400 -> "validation_failed";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 413 -> "payload_too_large";
            case 415 -> "unsupported_media_type";
            default -> status >= 500 ? "internal_error" : "request_failed";
        };
        Response.Status known = Response.Status.fromStatusCode(status);
        String title = known != null ? known.getReasonPhrase() : "Request failed";
        String detail = status == 404 ? "No such resource." : status >= 500 ? "The service failed; try again." : title + ".";
        return respond(Problem.of(status, code, title, detail, null)).build();
    }

    @ServerExceptionMapper
    public Response unexpected(Exception e) {
        if (clientClosed(e)) {
            // The caller hung up while its request was still being read (a client timeout, a load tester stopping):
            // not a fault of the service, and nobody is left to read the answer. One line, no stack trace.
            LOG.infof("request abandoned: the client closed the connection before its request was read");
            return respond(Problem.of(400, "request_aborted", "Request aborted",
                    "The connection was closed before the request was read.", null)).build();
        }
        String lost = databaseConnectionLost(e);
        if (lost != null) {
            // The database went away under the request (a restart, a failover, a dropped session): a fault of no
            // client's and over soon, so 503 with Retry-After, not 500 (docs/decisions.md §131). One line, no stack.
            LOG.warnf("database connection lost under a request, answered 503: %s", lost);
            ApiException unavailable = ApiException.unavailable(
                    "The service lost its database connection. Try again; a creation retried with the same "
                            + "Idempotency-Key is made at most once.", 1);
            return api(unavailable);
        }
        LOG.error("unexpected failure", e);
        return respond(Problem.of(500, "internal_error", "Internal error",
                "The service failed to handle the request; it has been logged.", null)).build();
    }

    /** SQLStates 57P01-57P03: the server is shutting down (by an administrator or a crash) or still starting. */
    private static final Set<String> SERVER_GONE = Set.of("57P01", "57P02", "57P03");

    /**
     * The message of the {@link SQLException} in {@code e}'s causes that says the database connection was lost or
     * refused, or null: SQLState class 08 (connection exception: closed, broken, could not connect), 57P01-57P03 (the
     * server shut down or is starting), or the JDBC connection-exception types.
     */
    static String databaseConnectionLost(Throwable e) {
        return causes(e).filter(SQLException.class::isInstance).map(SQLException.class::cast)
                .filter(ProblemMappers::connectionLost).findFirst()
                .map(sql -> (sql.getSQLState() != null ? sql.getSQLState() + " " : "") + sql.getMessage())
                .orElse(null);
    }

    private static boolean connectionLost(SQLException sql) {
        String state = sql.getSQLState();
        return sql instanceof SQLTransientConnectionException || sql instanceof SQLNonTransientConnectionException
                || state != null && (state.startsWith("08") || SERVER_GONE.contains(state));
    }

    /** Whether the failure is the client's connection closing under a request (Vert.x's HttpClosedException). */
    static boolean clientClosed(Throwable e) {
        return causes(e).anyMatch(HttpClosedException.class::isInstance);
    }

    /** {@code e} and its causes, outermost first; a cause that is its own cause ends the chain. */
    private static Stream<Throwable> causes(Throwable e) {
        return Stream.iterate(e, t -> t != null, t -> t.getCause() == t ? null : t.getCause());
    }

    private static Response.ResponseBuilder respond(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem);
    }

    /** A method-parameter path such as {@code create.request.amounts.totalLocal} becomes {@code amounts.totalLocal}. */
    static String leafPath(String path) {
        String[] parts = path.split("\\.");
        return parts.length > 2 ? String.join(".", java.util.Arrays.copyOfRange(parts, 2, parts.length))
                : parts[parts.length - 1];
    }
}
