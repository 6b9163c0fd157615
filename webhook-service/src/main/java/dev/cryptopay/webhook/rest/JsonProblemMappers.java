package dev.cryptopay.webhook.rest;

import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.cryptopay.support.problem.Problem;
import dev.cryptopay.support.problem.ProblemMappers;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Closes two gaps of the suite's {@link ProblemMappers} for request bodies (to move there; see the README):
 * <ul>
 * <li>Quarkus ships its own mapper for {@link MismatchedInputException} (a JSON value of the wrong type), which is
 * more specific than the shared one for {@code JsonProcessingException} and so wins, answering plain JSON instead
 * of problem+json. This one is as specific and comes first.</li>
 * <li>Quarkus wraps unparsable JSON in a {@code WebApplicationException(400)}; here it becomes
 * {@code malformed_json} as docs/api-conventions.md promises, every other one goes to the shared mapper.</li>
 * </ul>
 */
public class JsonProblemMappers {

    private final ProblemMappers shared = new ProblemMappers();

    @ServerExceptionMapper(priority = Priorities.USER - 100)
    public Response wrongType(MismatchedInputException e) {
        return shared.json(e);
    }

    @ServerExceptionMapper(priority = Priorities.USER - 100)
    public Response web(WebApplicationException e) {
        if (e.getResponse().getStatus() == 400 && e.getCause() instanceof StreamReadException) {
            return Response.status(400).type(Problem.MEDIA_TYPE).entity(Problem.of(400, "malformed_json",
                    "Malformed JSON", "The request body is not valid JSON.", null)).build();
        }
        return shared.web(e);
    }
}
