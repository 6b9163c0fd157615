package dev.cryptopay.support.jdbc;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One snapshot for an answer read in several statements (docs/decisions.md §110).
 * <p>
 * PostgreSQL's default isolation, READ COMMITTED, takes a new snapshot for every statement. An answer read as a row
 * and then its children (a transaction and then its payment requests, a subscription payment and then its attempts,
 * a total and then the page it counts) can therefore mix states that no writer ever committed together: a writer that
 * commits between two of the statements shows in the later ones only. A {@code REPEATABLE READ, READ ONLY}
 * transaction reads every statement from the snapshot of its first. Read-only, it never fails with a serialization
 * error in PostgreSQL (only writers do), so there is nothing to retry, and it takes no lock.
 * <p>
 * The level must be set before the transaction's first statement: PostgreSQL refuses to change the isolation of a
 * transaction that has read anything (setting the same level again is allowed, so a read called from another read is
 * fine). A transaction that has taken its snapshot cannot write.
 */
@ApplicationScoped
public class ConsistentReads {

    static final String SNAPSHOT = "set transaction isolation level repeatable read, read only";

    private final EntityManager em;

    public ConsistentReads(EntityManager em) {
        this.em = em;
    }

    /** The caller's transaction (it must have one) reads from one snapshot from here on. Call it first. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void begin() {
        em.createNativeQuery(SNAPSHOT).executeUpdate();
    }

    /** A read in several statements on a plain JDBC connection (not in a JTA transaction), from one snapshot. */
    public static <T> T read(Connection connection, Read<T> read) throws SQLException {
        connection.setAutoCommit(false);
        try {
            try (Statement statement = connection.createStatement()) {
                statement.execute(SNAPSHOT);
            }
            return read.on(connection);
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
        }
    }

    /** The statements of a {@link #read}. */
    @FunctionalInterface
    public interface Read<T> {
        T on(Connection connection) throws SQLException;
    }
}
