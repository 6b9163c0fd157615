package dev.cryptopay.support.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * For tests that commit a change at an exact point of another piece of work: the test holds a lock (a row it has
 * changed, a table locked exclusively), starts the work on another thread, waits here until a session of the database
 * waits for a lock, then commits. Queries PostgreSQL's {@code pg_stat_activity} every 20 ms, for 10 s at most.
 */
public final class LockWaits {

    private LockWaits() {
    }

    /** Returns once a session of this database waits for a lock; fails if {@code work} ends before that. */
    public static void awaitBlocked(DataSource dataSource, Future<?> work) throws SQLException, InterruptedException {
        awaitBlocked(dataSource, 1, work);
    }

    /**
     * Returns once {@code sessions} sessions of this database wait for a lock (one piece of work may wait for the
     * test's lock and another for the first's); fails if any of {@code work} ends before that.
     */
    public static void awaitBlocked(DataSource dataSource, int sessions, Future<?>... work)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection c = dataSource.getConnection();
                PreparedStatement waiting = c.prepareStatement("select count(*) from pg_stat_activity "
                        + "where datname = current_database() and wait_event_type = 'Lock'")) {
            while (true) {
                for (Future<?> w : work) {
                    assertFalse(w.isDone(), "the work finished without waiting for the lock the test holds");
                }
                try (ResultSet rs = waiting.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) >= sessions) {
                        return;
                    }
                }
                assertTrue(System.nanoTime() < deadline, "the work never reached the lock the test holds");
                Thread.sleep(20);
            }
        }
    }
}
