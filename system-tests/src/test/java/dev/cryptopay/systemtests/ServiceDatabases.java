package dev.cryptopay.systemtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What system tests share for reaching behind the API: a statement on one service's database (to age a row that only
 * time would otherwise change, such as an expiry), a value, count or rows to check or wait on, and polling for a
 * condition. The one place system tests open a JDBC connection for a single statement.
 */
public final class ServiceDatabases {

    private ServiceDatabases() {
    }

    /** Runs one update on the service's database ({@code transaction}, {@code merchant}, …); answers the row count. */
    public static int update(String database, String sql, Object... params) {
        try (Connection c = connect(database); PreparedStatement statement = prepare(c, sql, params)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Runs one {@code select count(*)} (or any single-number query) on the service's database; answers the number. */
    public static long count(String database, String sql, Object... params) {
        String value = value(database, sql, params);
        if (value == null) {
            throw new IllegalStateException("no number from: " + sql);
        }
        return Long.parseLong(value);
    }

    /** The first column of the first row of a query on the service's database, as text; null for no row. */
    public static String value(String database, String sql, Object... params) {
        List<List<Object>> rows = rows(database, sql, params);
        Object value = rows.isEmpty() ? null : rows.get(0).get(0);
        return value == null ? null : value.toString();
    }

    /** Every row of a query on the service's database, each as its columns' values (JDBC's objects). */
    public static List<List<Object>> rows(String database, String sql, Object... params) {
        try (Connection c = connect(database); PreparedStatement statement = prepare(c, sql, params);
                ResultSet result = statement.executeQuery()) {
            int columns = result.getMetaData().getColumnCount();
            List<List<Object>> rows = new ArrayList<>();
            while (result.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    row.add(result.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /**
     * Makes {@code table} of the service's database refuse every insert and update, raising {@code message}, as an
     * outage of that table would, until the answer is closed (a trigger, dropped again then). Nothing else of the
     * database is touched.
     */
    public static AutoCloseable refusingWrites(String database, String table, String message) {
        String name = "it_refuse_" + table + "_writes";
        update(database, "create function " + name + "() returns trigger language plpgsql as $$ begin raise exception '"
                + message.replace("'", "''") + "'; end $$");
        try {
            update(database, "create trigger " + name + " before insert or update on " + table
                    + " for each row execute function " + name + "()");
        } catch (RuntimeException e) {
            update(database, "drop function if exists " + name + "()");
            throw e;
        }
        return () -> {
            update(database, "drop trigger if exists " + name + " on " + table);
            update(database, "drop function if exists " + name + "()");
        };
    }

    private static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(Suite.jdbcUrl(database), "payments", "payments");
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement statement = c.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) {
            statement.setObject(i + 1, params[i]);
        }
        return statement;
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
