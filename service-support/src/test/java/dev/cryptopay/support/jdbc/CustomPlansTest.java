package dev.cryptopay.support.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The plan trap {@link CustomPlans} avoids, on the real database: a lookup by {@code id = any(?)} run a few times while
 * its table is empty, then run again once the table holds 20,000 rows that nothing has analysed. Left to the driver's
 * defaults, the connection keeps the generic plan chosen while the table was empty and reads the whole table for three
 * ids; planned for each execution, the same lookup uses the primary key. The scans are counted by PostgreSQL itself
 * ({@code pg_stat_xact_user_tables}: the session's counts not yet reported, read before and after the lookup).
 */
@QuarkusTest
class CustomPlansTest {

    private static final int ROWS = 20_000;

    @Inject
    AgroalDataSource dataSource;

    private String table;

    @BeforeEach
    void createEmptyTable() throws SQLException {
        table = "custom_plans_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            // As wide as a projection row (reporting's transaction_row has 40 columns): few rows fit an estimated page,
            // so while the table is empty a scan looks cheaper than the index.
            StringBuilder columns = new StringBuilder();
            for (int i = 1; i <= 24; i++) {
                columns.append(", c").append(i).append(" text");
            }
            st.execute("create table " + table + " (id uuid primary key, version bigint not null" + columns + ")");
            st.execute("alter table " + table + " set (autovacuum_enabled = false)"); // as where autovacuum is off
        }
    }

    @AfterEach
    void dropTable() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("drop table if exists " + table);
        }
    }

    @Test
    void aLookupPlannedWhileItsTableWasEmptyKeepsScanningTheWholeTable() throws SQLException {
        assertEquals(1, sequentialScansOfLookup(false),
                "the driver's cached generic plan reads the grown table sequentially (the trap this guards against)");
    }

    @Test
    void theSameLookupPlannedForEachExecutionUsesTheIndex() throws SQLException {
        assertEquals(0, sequentialScansOfLookup(true), "planned with the table's current size: the primary key");
    }

    /**
     * On one connection: ten lookups while the table is empty, then 20,000 rows, then one lookup of three stored ids;
     * answers the sequential scans of the table that last lookup made.
     */
    private long sequentialScansOfLookup(boolean customPlans) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            String lookup = "select id, version from " + table + " where id = any(?)";
            for (int i = 0; i < 10; i++) {
                assertEquals(0, lookup(c, lookup, customPlans, List.of(UUID.randomUUID(), UUID.randomUUID())).size());
            }
            List<UUID> stored = new ArrayList<>();
            try (Statement st = c.createStatement()) {
                st.execute("insert into " + table + " (id, version, c1) select gen_random_uuid(), n, repeat('x', 400) "
                        + "from generate_series(1, " + ROWS + ") n");
                try (ResultSet rs = st.executeQuery("select id from " + table + " order by id limit 3")) {
                    while (rs.next()) {
                        stored.add(rs.getObject(1, UUID.class));
                    }
                }
            }
            c.setAutoCommit(false); // one transaction: the session reports its counts only between transactions
            try {
                long before = sequentialScans(c);
                assertEquals(stored, lookup(c, lookup, customPlans, stored).stream().sorted().toList());
                return sequentialScans(c) - before;
            } finally {
                c.rollback();
                c.setAutoCommit(true);
            }
        }
    }

    /**
     * The table's sequential scans this session has not yet reported to the server's statistics (it reports them at a
     * transaction's end, at most once a second).
     */
    private long sequentialScans(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "select coalesce(sum(seq_scan), 0) from pg_stat_xact_user_tables where relname = ?")) {
            st.setString(1, table);
            try (ResultSet rs = st.executeQuery()) {
                assertTrue(rs.next());
                return rs.getLong(1);
            }
        }
    }

    private static List<UUID> lookup(Connection c, String sql, boolean customPlans, List<UUID> ids)
            throws SQLException {
        try (PreparedStatement st = customPlans ? CustomPlans.eachExecution(c.prepareStatement(sql))
                : c.prepareStatement(sql)) {
            st.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            List<UUID> found = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getObject(1, UUID.class));
                }
            }
            return found;
        }
    }
}
