package dev.cryptopay.reporting.store;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;

/**
 * The store schemas: the live one (named by {@code store_pointer}) and, during a rebuild, a fresh one. Each store
 * schema is migrated by Flyway from {@code db/store} with its own history table, so the live store and a rebuilt one
 * always have the same structure. Writers take the switch lock shared for each batch (see {@link #lockShared}); a
 * rebuild takes it exclusively for the moment it switches the pointer, so no batch lands in the old schema after it.
 */
@ApplicationScoped
public class StoreSchemas {

    /** PostgreSQL advisory lock guarding the pointer switch ("REPORTSW"). */
    public static final long SWITCH_LOCK = 0x5245504f52545357L;
    /** Advisory lock serialising the first creation of the store between replicas. */
    private static final long INIT_LOCK = 0x5245504f5254494eL;
    private static final Pattern NAME = Pattern.compile("^store_[0-9]{1,9}$");

    private final AgroalDataSource dataSource;
    private volatile String active;

    public StoreSchemas(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The live schema's name (cached; {@link #refresh} re-reads it). Creates and migrates the store the first time. */
    public String active() {
        String name = active;
        if (name == null) {
            name = initialise();
        }
        return name;
    }

    /** Creates or migrates the live store at startup, outside any transaction (Flyway manages its own). */
    void onStart(@Observes StartupEvent event) {
        active();
    }

    /** Another replica may have switched the store: every replica re-reads the pointer every few seconds. */
    @Scheduled(every = "3s", delayed = "3s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void poll() {
        if (active != null) {
            refresh();
        }
    }

    /** Re-reads the pointer. */
    public void refresh() {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select active_schema from store_pointer where id = 1")) {
            if (rs.next()) {
                active = checked(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the store pointer", e);
        }
    }

    /**
     * Takes the switch lock shared for the current transaction of {@code c} and answers the live schema as it is
     * under that lock: what a writer must use for the batch it is about to apply.
     */
    public String lockShared(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "select active_schema, pg_advisory_xact_lock_shared(?) from store_pointer where id = 1")) {
            st.setLong(1, SWITCH_LOCK);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("the store pointer is missing");
                }
                return checked(rs.getString(1));
            }
        }
    }

    /** Points the store at {@code schema}; {@code c} must hold the switch lock exclusively. */
    public void switchTo(Connection c, String schema) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "update store_pointer set active_schema = ?, switched_at = now() where id = 1")) {
            st.setString(1, checked(schema));
            st.executeUpdate();
        }
    }

    /** Called after the switch committed. */
    public void switched(String schema) {
        active = checked(schema);
    }

    /** Creates (if needed) and migrates a store schema. */
    public void migrate(String schema) {
        Flyway.configure()
                .dataSource(dataSource)
                .schemas(checked(schema))
                .defaultSchema(schema)
                .createSchemas(true)
                .table("flyway_store_history")
                .locations("classpath:db/store")
                .load()
                .migrate();
    }

    /** The next unused store schema name (store_N+1 over every store schema that exists). */
    public String nextName() {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select coalesce(max(substring(nspname from 7)::int), 0) + 1 "
                        + "from pg_namespace where nspname ~ '^store_[0-9]+$'")) {
            rs.next();
            return "store_" + rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot list the store schemas", e);
        }
    }

    /** Drops a store schema that is not live (an abandoned rebuild or a superseded store). */
    public void drop(String schema) {
        if (checked(schema).equals(active())) {
            throw new IllegalArgumentException("the live store cannot be dropped");
        }
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute("drop schema if exists " + schema + " cascade");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop " + schema, e);
        }
    }

    /** Only names of the form store_N ever reach SQL text. */
    public static String checked(String schema) {
        if (schema == null || !NAME.matcher(schema).matches()) {
            throw new IllegalArgumentException("not a store schema name: " + schema);
        }
        return schema;
    }

    private synchronized String initialise() {
        if (active != null) {
            return active;
        }
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement lock = c.prepareStatement("select pg_advisory_lock(?)")) {
                lock.setLong(1, INIT_LOCK);
                lock.execute();
            }
            try {
                String name;
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("select active_schema from store_pointer where id = 1")) {
                    name = rs.next() ? checked(rs.getString(1)) : null;
                }
                if (name == null) {
                    name = "store_1";
                    migrate(name);
                    try (PreparedStatement insert = c.prepareStatement(
                            "insert into store_pointer (id, active_schema) values (1, ?)")) {
                        insert.setString(1, name);
                        insert.executeUpdate();
                    }
                } else {
                    migrate(name);
                }
                active = name;
                return name;
            } finally {
                try (PreparedStatement unlock = c.prepareStatement("select pg_advisory_unlock(?)")) {
                    unlock.setLong(1, INIT_LOCK);
                    unlock.execute();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot initialise the reporting store", e);
        }
    }
}
