package dev.cryptopay.systemtests.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.Suite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Replicas of a new version start at once and all run Flyway at start (quarkus.flyway.migrate-at-start): two
 * merchant-service instances start together on an empty schema. Flyway serialises them with a PostgreSQL advisory
 * lock per migration, so each migration is applied by one of them, in version order, while the other waits (one may
 * apply them all, or they share them); both come up ready, and
 * every migration is recorded once and successful. (merchant-service: it consumes no topic, so the extra
 * instances take no partitions from the suite's services; the schema is a fresh one in merchant_it.)
 */
class MigrationRaceIT {

    private static final Pattern APPLIED = Pattern.compile("Successfully applied (\\d+) migrations?");

    private static final Map<String, Integer> INSTANCES = new LinkedHashMap<>(Map.of(
            "merchant-race-a", 18091, "merchant-race-b", 18092));

    @Test
    void twoInstancesMigratingOneEmptySchemaAtOnceBothStartAndEachMigrationRunsOnce() throws Exception {
        Suite suite = Suite.get();
        String schema = "race_" + UUID.randomUUID().toString().substring(0, 8);
        for (String name : INSTANCES.keySet()) { // logs are appended to: start from empty ones
            Files.deleteIfExists(suite.log(name));
        }
        try {
            suite.startReplicas("merchant", INSTANCES, Map.of(
                    "DB_URL", Suite.jdbcUrl("merchant") + "?currentSchema=" + schema,
                    "QUARKUS_FLYWAY_SCHEMAS", schema));
            List<String> versions = new ArrayList<>();
            try (Connection db = DriverManager.getConnection(Suite.jdbcUrl("merchant"), "payments", "payments");
                    Statement query = db.createStatement()) {
                try (ResultSet rows = query.executeQuery("select version, success from " + schema
                        + ".flyway_schema_history where version is not null order by installed_rank")) {
                    while (rows.next()) {
                        assertTrue(rows.getBoolean(2), "migration " + rows.getString(1) + " failed");
                        versions.add(rows.getString(1));
                    }
                }
                assertTrue(versions.size() >= 3, "migrations recorded: " + versions);
                assertEquals(versions.stream().distinct().toList(), versions, "a migration ran twice");
                assertEquals(1, count(query, "select count(*) from information_schema.tables where table_schema = '"
                        + schema + "' and table_name = 'account'"), "the schema was migrated");
            }
            // Flyway locks each migration, not the whole run, so the two instances may share the work (one applies
            // V1 and V2, the other V3, each in version order): what must hold is that together they applied each
            // recorded migration exactly once, as their "Successfully applied N migration(s)" lines add up.
            long applied = 0;
            for (String name : INSTANCES.keySet()) {
                Path log = suite.log(name);
                applied += Files.readAllLines(log).stream().map(APPLIED::matcher).filter(Matcher::find)
                        .mapToLong(m -> Long.parseLong(m.group(1))).sum();
            }
            assertEquals(versions.size(), applied, "each migration applied by exactly one instance, once");
        } finally {
            INSTANCES.keySet().forEach(suite::stopService);
            try (Connection db = DriverManager.getConnection(Suite.jdbcUrl("merchant"), "payments", "payments");
                    Statement drop = db.createStatement()) {
                drop.execute("drop schema if exists " + schema + " cascade");
            }
        }
    }

    private static long count(Statement query, String sql) throws SQLException {
        try (ResultSet rows = query.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
