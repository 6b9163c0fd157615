package dev.cryptopay.support.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.postgresql.PGStatement;

/**
 * Statements that PostgreSQL plans for each execution's own parameters instead of caching one generic plan.
 *
 * <p>The PostgreSQL driver turns a statement into a named server-side prepared statement after its fifth execution on
 * a connection, and the server then settles on a generic plan (one plan for every parameter value) when that plan looks
 * no dearer than the custom ones so far. A lookup like {@code where id = any(?)} first run while its table is empty or
 * nearly so (a fresh database, a new schema) is cheapest as a sequential scan, and that generic plan stays in the
 * connection's cache until the table's statistics change. Where nothing analyses the table (autovacuum off, as on the
 * local development server of docs/performance.md, twelfth step) that is never: every later lookup reads the whole
 * table, and a lookup per consumed batch becomes linear in everything stored. reporting-service's projector spent
 * 1.9 ms of PostgreSQL's CPU per creation on it after 38,000 transactions, 0.36 ms once the table was analysed.
 *
 * <p>The driver's per-statement prepare threshold of 0 keeps such a statement unnamed: the server plans it at each
 * execution with the values bound and the table's current size, at the cost of that planning (a fraction of a
 * millisecond per batch). Use it for lookups over tables that grow from empty, whose plan depends on their size; a
 * primary-key equality or an insert gains nothing from it.
 */
public final class CustomPlans {

    private CustomPlans() {
    }

    /** The statement itself, planned by the server at each execution from now on. */
    public static <T extends PreparedStatement> T eachExecution(T statement) throws SQLException {
        statement.unwrap(PGStatement.class).setPrepareThreshold(0);
        return statement;
    }
}
