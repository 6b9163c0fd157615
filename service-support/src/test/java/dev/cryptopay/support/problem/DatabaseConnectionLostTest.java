package dev.cryptopay.support.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/**
 * A database connection lost under a request is no client's fault and over soon: 503 service_unavailable with
 * Retry-After, not 500 (docs/decisions.md §131). Any other database failure stays a 500.
 */
class DatabaseConnectionLostTest {

    private final ProblemMappers mappers = new ProblemMappers();

    @Test
    void aClosedConnectionIsAnswered503WithRetryAfter() {
        // What the PostgreSQL driver throws on a pooled connection whose session the server ended, wrapped as the
        // address allocator and Hibernate wrap it.
        Exception lost = new IllegalStateException("allocating an address index failed",
                new SQLException("This connection has been closed.", "08003"));
        Response answer = mappers.unexpected(lost);
        assertEquals(503, answer.getStatus());
        assertEquals("service_unavailable", ((Problem) answer.getEntity()).code());
        assertEquals("1", String.valueOf(answer.getHeaderString("Retry-After")));
    }

    @Test
    void aServerShuttingDownAndTheConnectionTypesCountToo() {
        assertEquals(503, mappers.unexpected(new RuntimeException(
                new SQLException("terminating connection due to administrator command", "57P01"))).getStatus());
        assertEquals(503, mappers.unexpected(new RuntimeException(
                new SQLTransientConnectionException("Acquisition timeout"))).getStatus());
    }

    @Test
    void otherDatabaseFailuresStayInternalErrors() {
        // 23505: a unique violation nobody mapped; 57014: a statement cancelled by its timeout
        assertEquals(500, mappers.unexpected(new RuntimeException(
                new SQLException("duplicate key value violates unique constraint", "23505"))).getStatus());
        assertEquals(500, mappers.unexpected(new RuntimeException(
                new SQLException("canceling statement due to statement timeout", "57014"))).getStatus());
        assertEquals(500, mappers.unexpected(new RuntimeException(new SQLException("no state"))).getStatus());
    }
}
