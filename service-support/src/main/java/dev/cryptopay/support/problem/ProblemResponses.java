package dev.cryptopay.support.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * A problem answered from a Vert.x route rather than a JAX-RS resource (where {@link ProblemMappers} does it): the
 * gateway's own answers, its public API document's rate limit, the management port's 404. The same document, media
 * type and {@code Retry-After} as {@link ProblemMappers} gives.
 */
public final class ProblemResponses {

    private ProblemResponses() {
    }

    /** Ends {@code response} with {@code problem}: its status, problem+json, and Retry-After when it has one. */
    public static void end(HttpServerResponse response, ObjectMapper mapper, ApiException problem) {
        response.setStatusCode(problem.status()).putHeader("Content-Type", Problem.MEDIA_TYPE);
        if (problem.retryAfterSeconds() != null) {
            response.putHeader("Retry-After", String.valueOf(problem.retryAfterSeconds()));
        }
        response.end(body(mapper, problem.toProblem()));
    }

    /** The problem document as JSON, for an answer built some other way (a proxied response). */
    public static Buffer body(ObjectMapper mapper, Problem problem) {
        try {
            return Buffer.buffer(mapper.writeValueAsBytes(problem));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem document did not convert", e);
        }
    }
}
