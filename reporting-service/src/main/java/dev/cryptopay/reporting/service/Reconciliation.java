package dev.cryptopay.reporting.service;

import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.store.StoreSchemas;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Gaps made visible: a transaction or refund whose versions seen are fewer than its highest version is missing
 * events. They are counted (the {@code reporting.version.gaps} gauge) and listed with the missing version numbers
 * (GET /operator/reporting/gaps), never silently skipped.
 */
@ApplicationScoped
public class Reconciliation {

    /** One aggregate with missing versions. */
    public record Gap(String topic, String aggregateID, String accountID, long version, long versionsSeen,
            List<Long> missingVersions) {
    }

    public record Gaps(long total, List<Gap> gaps) {
    }

    private final AgroalDataSource dataSource;
    private final StoreSchemas schemas;

    public Reconciliation(AgroalDataSource dataSource, StoreSchemas schemas) {
        this.dataSource = dataSource;
        this.schemas = schemas;
    }

    /** Aggregates with gaps, per topic: [transactions, refunds]. */
    public long[] count() {
        String s = schemas.active();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select (select count(*) from " + s + ".transaction_row "
                        + "where versions_seen < version), (select count(*) from " + s + ".refund_row "
                        + "where versions_seen < version)")) {
            rs.next();
            return new long[] { rs.getLong(1), rs.getLong(2) };
        } catch (SQLException e) {
            throw new IllegalStateException("counting gaps failed", e);
        }
    }

    public Gaps list(java.util.UUID account, int limit, long offset) {
        String s = schemas.active();
        String missing = "array(select v from generate_series(1, g.version) v except select e.version from " + s
                + ".event_log e where e.topic = g.topic and e.aggregate_id = g.id order by 1)";
        String sql = "with g as (select '" + Topics.TRANSACTIONS + "' as topic, transaction_id::text as id, "
                + "account_id, version, versions_seen from " + s + ".transaction_row where versions_seen < version "
                + "union all select '" + Topics.REFUNDS + "', refund_id::text, account_id, version, versions_seen from "
                + s + ".refund_row where versions_seen < version) "
                + "select g.topic, g.id, g.account_id, g.version, g.versions_seen, " + missing
                + ", count(*) over () from g" + (account == null ? "" : " where g.account_id = ?")
                + " order by g.topic, g.id limit ? offset ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(sql)) {
            int i = 1;
            if (account != null) {
                st.setObject(i++, account);
            }
            st.setInt(i++, limit);
            st.setLong(i, offset);
            List<Gap> gaps = new ArrayList<>();
            long total = 0;
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Array versions = rs.getArray(6);
                    List<Long> list = Arrays.stream((Object[]) versions.getArray()).map(v -> ((Number) v).longValue())
                            .toList();
                    gaps.add(new Gap(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5),
                            list));
                    total = rs.getLong(7);
                }
            }
            return new Gaps(total, gaps);
        } catch (SQLException e) {
            throw new IllegalStateException("listing gaps failed", e);
        }
    }
}
