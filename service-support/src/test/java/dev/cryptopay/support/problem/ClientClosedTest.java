package dev.cryptopay.support.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.http.HttpClosedException;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A client that hangs up under its request is not a service failure: 400 request_aborted, not 500. */
class ClientClosedTest {

    private final ProblemMappers mappers = new ProblemMappers();

    @Test
    void aConnectionClosedWhileTheBodyWasReadIsNotAnInternalError() {
        // What Quarkus REST throws when the client closes the connection while a blocking resource reads the body.
        Exception closed = new IOException(new IOException(new HttpClosedException("Connection was closed")));
        Response answer = mappers.unexpected(closed);
        assertEquals(400, answer.getStatus());
        assertEquals("request_aborted", ((Problem) answer.getEntity()).code());
    }

    @Test
    void anyOtherUnexpectedFailureStaysAnInternalError() {
        Response answer = mappers.unexpected(new IOException("disk full"));
        assertEquals(500, answer.getStatus());
        assertEquals("internal_error", ((Problem) answer.getEntity()).code());
    }
}
