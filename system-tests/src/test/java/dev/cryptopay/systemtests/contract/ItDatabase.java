package dev.cryptopay.systemtests.contract;

import dev.cryptopay.systemtests.Suite;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Direct reads (and, to simulate a lagging view, one delete) on the services' *_it databases. */
final class ItDatabase {

    private ItDatabase() {
    }

    /** The single value of a query such as {@code select count(*) ...}, as text. */
    static String value(String service, String sql, Object... params) {
        try (Connection c = DriverManager.getConnection(Suite.jdbcUrl(service), "payments", "payments");
                PreparedStatement statement = prepare(c, sql, params);
                ResultSet rows = statement.executeQuery()) {
            return rows.next() ? rows.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static int update(String service, String sql, Object... params) {
        try (Connection c = DriverManager.getConnection(Suite.jdbcUrl(service), "payments", "payments");
                PreparedStatement statement = prepare(c, sql, params)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement statement = c.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) {
            statement.setObject(i + 1, params[i]);
        }
        return statement;
    }
}
