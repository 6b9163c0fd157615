package dev.cryptopay.systemtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * What system tests share for reaching behind the API: a statement on one service's database (to age a row that only
 * time would otherwise change, such as an expiry), a count to wait on, and polling for a condition.
 */
public final class ServiceDatabases {

    private ServiceDatabases() {
    }

    /** Runs one update on the service's database ({@code transaction}, {@code merchant}, …); answers the row count. */
    public static int update(String database, String sql, Object... params) {
        try (Connection c = DriverManager.getConnection(Suite.jdbcUrl(database), "payments", "payments");
                PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Runs one {@code select count(*)} (or any single-number query) on the service's database; answers the number. */
    public static long count(String database, String sql, Object... params) {
        try (Connection c = DriverManager.getConnection(Suite.jdbcUrl(database), "payments", "payments");
                PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Polls {@code condition} every 200 ms, failing with {@code what} after 30 s. */
    public static void awaitTrue(Supplier<Boolean> condition, String what) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!condition.get()) {
            assertTrue(Instant.now().isBefore(deadline), what + ": not within 30 s");
            sleep(200);
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
