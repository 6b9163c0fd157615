package dev.cryptopay.reporting.service;

import dev.cryptopay.reporting.rest.ReportDtos.Compliance;
import dev.cryptopay.reporting.rest.ReportDtos.Fees;
import dev.cryptopay.reporting.rest.ReportDtos.PaymentDetail;
import dev.cryptopay.reporting.rest.ReportDtos.PaymentSummary;
import dev.cryptopay.reporting.rest.ReportDtos.Refund;
import dev.cryptopay.reporting.rest.ReportDtos.Settlement;
import dev.cryptopay.reporting.rest.ReportDtos.SettlementList;
import dev.cryptopay.reporting.rest.ReportDtos.Summary;
import dev.cryptopay.reporting.rest.ReportDtos.TransactionDetail;
import dev.cryptopay.reporting.rest.ReportDtos.TransactionList;
import dev.cryptopay.reporting.rest.ReportDtos.TransactionRow;
import dev.cryptopay.reporting.store.StoreSchemas;
import dev.cryptopay.support.jdbc.ConsistentReads;
import dev.cryptopay.support.jdbc.CustomPlans;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads of the live store: the listing, one transaction, the figures and the settlement periods. A read in several
 * statements takes them from one snapshot (ConsistentReads): the projector changes a transaction's row and its payment
 * rows together.
 */
@ApplicationScoped
public class ReportQueries {

    static final String ROW_COLUMNS = "t.transaction_id, t.account_id, t.merchant_id, t.external_mid, t.descriptor, "
            + "t.reference_number, t.status, t.payment_status, t.currency, t.total_local, t.total_usd, t.received_usd, "
            + "t.customer_fee_usd, t.fx_rate_to_usd, t.cancellation_reason, t.expiration, t.source_created_at, "
            + "t.source_updated_at";
    private static final String PAYMENT_COLUMNS = "p.transaction_id, p.payment_request_id, p.crypto_asset, "
            + "p.crypto_network, p.address, p.from_address, p.expected_usd, p.received_crypto, p.gas_fee, "
            + "p.gas_fee_units, p.txn_hash, p.status, p.fraud_pass, p.created_at, p.expected_crypto, p.received_usd, "
            + "p.confirmation_count, p.crypto_rate_per_usd, p.wallet_name, p.completed_at, p.expiration, "
            + "p.source_updated_at";

    private final AgroalDataSource dataSource;
    private final StoreSchemas schemas;
    private final ReportClock clock;

    public ReportQueries(AgroalDataSource dataSource, StoreSchemas schemas, ReportClock clock) {
        this.dataSource = dataSource;
        this.schemas = schemas;
        this.clock = clock;
    }

    // ------------------------------------------------------------------------------------------------ listing

    public TransactionList list(TransactionFilter filter, int limit, long offset) {
        String schema = schemas.active();
        TransactionFilter.Where where = filter.where();
        try (Connection connection = dataSource.getConnection()) {
            return ConsistentReads.read(connection, c -> {
                long total;
                try (PreparedStatement st = c.prepareStatement("select count(*) from " + schema
                        + ".transaction_row t where " + where.sql())) {
                    bind(st, where.parameters(), 1);
                    try (ResultSet rs = st.executeQuery()) {
                        rs.next();
                        total = rs.getLong(1);
                    }
                }
                List<Object[]> rows = new ArrayList<>();
                if (offset < total) {
                    try (PreparedStatement st = c.prepareStatement("select " + ROW_COLUMNS + " from " + schema
                            + ".transaction_row t where " + where.sql()
                            + " order by t.source_created_at desc, t.transaction_id desc limit ? offset ?")) {
                        int next = bind(st, where.parameters(), 1);
                        st.setInt(next, limit);
                        st.setLong(next + 1, offset);
                        try (ResultSet rs = st.executeQuery()) {
                            while (rs.next()) {
                                rows.add(rowValues(rs));
                            }
                        }
                    }
                }
                Map<UUID, List<PaymentSummary>> payments = new HashMap<>();
                if (!rows.isEmpty()) {
                    payments(c, schema, rows.stream().map(r -> (UUID) r[0]).toArray(UUID[]::new), payments);
                }
                List<TransactionRow> result = rows.stream()
                        .map(r -> row(r, payments.getOrDefault((UUID) r[0], List.of()))).toList();
                return new TransactionList(total, result);
            });
        } catch (SQLException e) {
            throw new IllegalStateException("listing transactions failed", e);
        }
    }

    public Optional<TransactionDetail> detail(UUID account, UUID transactionId) {
        String schema = schemas.active();
        try (Connection connection = dataSource.getConnection()) {
            return ConsistentReads.read(connection, c -> {
                Object[] r;
                Compliance compliance;
                Fees fees;
                try (PreparedStatement st = c.prepareStatement("select " + ROW_COLUMNS + ", t.kyc_triggered, "
                        + "t.travel_rule_triggered, t.fee_mdr_usd, t.fee_platform_usd, t.fees_deducted_usd, "
                        + "t.platform_collection, t.held_for_review, cast(t.resolution_logs as text), "
                        + "t.str_filing_reference from " + schema
                        + ".transaction_row t where t.transaction_id = ? and t.account_id = ?")) {
                    st.setObject(1, transactionId);
                    st.setObject(2, account);
                    try (ResultSet rs = st.executeQuery()) {
                        if (!rs.next()) {
                            return Optional.empty();
                        }
                        r = rowValues(rs);
                        compliance = new Compliance(rs.getBoolean(19), rs.getBoolean(20),
                                rs.getObject(25) == null ? null : rs.getBoolean(25), logs(rs.getString(26)),
                                rs.getString(27));
                        fees = new Fees(rs.getBigDecimal(21), rs.getBigDecimal(22), rs.getBigDecimal(23),
                                rs.getString(24));
                    }
                }
                List<PaymentDetail> payments = payments(c, schema, new UUID[] { transactionId }, new HashMap<>());
                List<Refund> refunds = refunds(c, schema, transactionId);
                return Optional.of(new TransactionDetail(str(r[0]), str(r[1]), str(r[2]), (String) r[3], (String) r[4],
                        (String) r[5], (int) r[6], (int) r[7], (String) r[8], (BigDecimal) r[9], (BigDecimal) r[10],
                        (BigDecimal) r[11], (BigDecimal) r[12], (BigDecimal) r[13], compliance, payments, refunds, fees,
                        (String) r[14], (String) r[15], (String) r[16], (String) r[17]));
            });
        } catch (SQLException e) {
            throw new IllegalStateException("reading a transaction failed", e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper LOGS =
            com.fasterxml.jackson.databind.json.JsonMapper.builder()
                    .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .nodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true)).build();

    /** The stored resolution log as JSON (its entries exactly as the event carried them); null when none. */
    private static com.fasterxml.jackson.databind.JsonNode logs(String json) {
        if (json == null) {
            return null;
        }
        try {
            return LOGS.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("stored resolution log is not JSON", e);
        }
    }

    private static Object[] rowValues(ResultSet rs) throws SQLException {
        return new Object[] { rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getString(4), rs.getString(5), rs.getString(6), (int) rs.getShort(7), (int) rs.getShort(8),
                rs.getString(9), rs.getBigDecimal(10), rs.getBigDecimal(11), rs.getBigDecimal(12),
                rs.getBigDecimal(13), rs.getBigDecimal(14), rs.getString(15), time(rs, 16), time(rs, 17),
                time(rs, 18) };
    }

    private static TransactionRow row(Object[] r, List<PaymentSummary> payments) {
        return new TransactionRow(str(r[0]), str(r[1]), str(r[2]), (String) r[3], (String) r[4], (String) r[5],
                (int) r[6], (int) r[7], (String) r[8], (BigDecimal) r[9], (BigDecimal) r[10], (BigDecimal) r[11],
                (BigDecimal) r[12], (BigDecimal) r[13], payments, (String) r[14], (String) r[15], (String) r[16],
                (String) r[17]);
    }

    /** The payments of {@code ids} in position order; also fills {@code summaries} per transaction. */
    private static List<PaymentDetail> payments(Connection c, String schema, UUID[] ids,
            Map<UUID, List<PaymentSummary>> summaries) throws SQLException {
        List<PaymentDetail> details = new ArrayList<>();
        try (PreparedStatement st = CustomPlans.eachExecution(c.prepareStatement("select " + PAYMENT_COLUMNS + " from "
                + schema + ".payment_row p where p.transaction_id = any(?) order by p.transaction_id, p.position"))) {
            st.setArray(1, c.createArrayOf("uuid", ids));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    UUID tx = rs.getObject(1, UUID.class);
                    Integer status = rs.getObject(12) == null ? null : (int) rs.getShort(12);
                    Boolean fraudPass = rs.getObject(13) == null ? null : rs.getBoolean(13);
                    Integer confirmations = rs.getObject(17) == null ? null : rs.getInt(17);
                    String createdAt = time(rs, 14);
                    summaries.computeIfAbsent(tx, k -> new ArrayList<>()).add(new PaymentSummary(str(rs.getObject(2)),
                            rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6), rs.getBigDecimal(7),
                            rs.getBigDecimal(8), rs.getBigDecimal(9), rs.getString(10), rs.getString(11), status,
                            fraudPass, createdAt));
                    details.add(new PaymentDetail(str(rs.getObject(2)), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getBigDecimal(7), rs.getBigDecimal(8),
                            rs.getBigDecimal(9), rs.getString(10), rs.getString(11), status, fraudPass, createdAt,
                            rs.getBigDecimal(15), rs.getBigDecimal(16), confirmations, rs.getBigDecimal(18),
                            rs.getString(19), time(rs, 20), time(rs, 21), createdAt, time(rs, 22)));
                }
            }
        }
        return details;
    }

    private static List<Refund> refunds(Connection c, String schema, UUID transactionId) throws SQLException {
        List<Refund> refunds = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("select refund_id, payment_request_id, crypto_asset, "
                + "crypto_network, crypto_amount, fiat_amount, fiat_currency, amount_usd, gas_fee, gas_fee_payer, "
                + "receiver_address, status, reason, txn_hash, source_created_at, completed_at from " + schema
                + ".refund_row where transaction_id = ? order by source_created_at, refund_id")) {
            st.setObject(1, transactionId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    refunds.add(new Refund(str(rs.getObject(1)), str(rs.getObject(2)), rs.getString(3),
                            rs.getString(4), rs.getBigDecimal(5), rs.getBigDecimal(6), rs.getString(7),
                            rs.getBigDecimal(8), rs.getBigDecimal(9), rs.getString(10), rs.getString(11),
                            rs.getShort(12), rs.getString(13), rs.getString(14), time(rs, 15), time(rs, 16)));
                }
            }
        }
        return refunds;
    }

    // ------------------------------------------------------------------------------------------------ figures

    /**
     * totalVolumeUSD and totalFeesUSD over the successful transactions whose success time is in
     * {@code [from, toExclusive)}; pendingPayoutsUSD is the payout of the open settlement period (whatever the range).
     */
    public Summary summary(UUID account, UUID merchant, Instant from, Instant toExclusive) {
        String schema = schemas.active();
        try (Connection connection = dataSource.getConnection()) {
            return ConsistentReads.read(connection, c -> {
                StringBuilder sql = new StringBuilder("select coalesce(sum(t.received_usd), 0), "
                        + "coalesce(sum(t.fee_mdr_usd + t.fee_platform_usd), 0) from " + schema
                        + ".transaction_row t where t.account_id = ? and t.status = 1");
                List<Object> parameters = new ArrayList<>(List.of(account));
                if (merchant != null) {
                    sql.append(" and t.merchant_id = ?");
                    parameters.add(merchant);
                }
                if (from != null) {
                    sql.append(" and t.success_at >= ?");
                    parameters.add(Timestamp.from(from));
                }
                if (toExclusive != null) {
                    sql.append(" and t.success_at < ?");
                    parameters.add(Timestamp.from(toExclusive));
                }
                BigDecimal volume;
                BigDecimal fees;
                try (PreparedStatement st = c.prepareStatement(sql.toString())) {
                    bind(st, parameters, 1);
                    try (ResultSet rs = st.executeQuery()) {
                        rs.next();
                        volume = rs.getBigDecimal(1);
                        fees = rs.getBigDecimal(2);
                    }
                }
                SettlementSchedule schedule = schedule(c, schema, account);
                long open = schedule.period(clock.now());
                List<Settlement> current = settlements(c, schema, account, merchant, schedule, open, open, 1, 0).rows();
                BigDecimal pending = current.isEmpty() ? cents(BigDecimal.ZERO) : current.get(0).payoutUSD();
                return new Summary(cents(volume), cents(fees), pending);
            });
        } catch (SQLException e) {
            throw new IllegalStateException("computing the summary failed", e);
        }
    }

    /** The settlement periods with activity whose start lies in {@code [from, toExclusive)}, newest first. */
    public SettlementList settlements(UUID account, UUID merchant, Instant from, Instant toExclusive, int limit,
            long offset) {
        String schema = schemas.active();
        try (Connection c = dataSource.getConnection()) {
            SettlementSchedule schedule = schedule(c, schema, account);
            long first = from == null ? Long.MIN_VALUE : ceilPeriod(schedule, from);
            long last = toExclusive == null ? Long.MAX_VALUE : ceilPeriod(schedule, toExclusive) - 1;
            Page page = settlements(c, schema, account, merchant, schedule, first, last, limit, offset);
            return new SettlementList(schedule.frequency(), schedule.anchor().toString(), page.total(), page.rows());
        } catch (SQLException e) {
            throw new IllegalStateException("listing settlements failed", e);
        }
    }

    /** The first period starting at or after {@code t}. */
    private static long ceilPeriod(SettlementSchedule schedule, Instant t) {
        long k = schedule.period(t);
        return schedule.start(k).equals(t) ? k : k + 1;
    }

    private record Page(long total, List<Settlement> rows) {
    }

    private Page settlements(Connection c, String schema, UUID account, UUID merchant, SettlementSchedule schedule,
            long first, long last, int limit, long offset) throws SQLException {
        if (first > last) {
            return new Page(0, List.of());
        }
        String merchantClause = merchant == null ? "" : " and merchant_id = ?";
        String txRange = (first == Long.MIN_VALUE ? "" : " and success_at >= ?")
                + (last == Long.MAX_VALUE ? "" : " and success_at < ?");
        String refundRange = (first == Long.MIN_VALUE ? "" : " and completed_at >= ?")
                + (last == Long.MAX_VALUE ? "" : " and completed_at < ?");
        String sql = "with tx as (select " + schedule.periodSql("success_at") + " as k, count(*) as n, "
                + "sum(received_usd) as volume, sum(fee_mdr_usd + fee_platform_usd) as fees, "
                + "sum(fees_deducted_usd) as deducted from " + schema + ".transaction_row "
                + "where account_id = ? and status = 1 and success_at is not null" + merchantClause + txRange
                + " group by 1), "
                + "rf as (select " + schedule.periodSql("completed_at") + " as k, count(*) as n, "
                + "sum(coalesce(amount_usd, 0)) as refunds from " + schema + ".refund_row "
                + "where account_id = ? and status = 1 and completed_at is not null" + merchantClause + refundRange
                + " group by 1) "
                + "select coalesce(tx.k, rf.k) as k, coalesce(tx.n, 0), coalesce(tx.volume, 0), coalesce(tx.fees, 0), "
                + "coalesce(tx.deducted, 0), coalesce(rf.n, 0), coalesce(rf.refunds, 0), count(*) over () "
                + "from tx full join rf on tx.k = rf.k order by 1 desc limit ? offset ?";
        List<Object> parameters = new ArrayList<>(schedule.periodSqlParameters());
        parameters.add(account);
        if (merchant != null) {
            parameters.add(merchant);
        }
        addRange(parameters, schedule, first, last);
        parameters.addAll(schedule.periodSqlParameters());
        parameters.add(account);
        if (merchant != null) {
            parameters.add(merchant);
        }
        addRange(parameters, schedule, first, last);
        parameters.add(limit);
        parameters.add(offset);
        long open = schedule.period(clock.now());
        List<Settlement> rows = new ArrayList<>();
        long total = 0;
        try (PreparedStatement st = c.prepareStatement(sql)) {
            bind(st, parameters, 1);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    long k = rs.getLong(1);
                    BigDecimal volume = rs.getBigDecimal(3);
                    BigDecimal fees = rs.getBigDecimal(4);
                    BigDecimal deducted = rs.getBigDecimal(5);
                    BigDecimal refunds = rs.getBigDecimal(7);
                    rows.add(new Settlement(schedule.start(k).toString(), schedule.end(k).toString(),
                            k >= open ? "open" : "closed", rs.getLong(2), cents(volume), cents(fees), cents(deducted),
                            cents(fees.subtract(deducted)), rs.getLong(6), cents(refunds),
                            cents(volume.subtract(deducted).subtract(refunds))));
                    total = rs.getLong(8);
                }
            }
        }
        if (rows.isEmpty() && offset > 0) {
            total = settlementCount(c, schema, account, merchant, schedule, first, last);
        }
        return new Page(total, rows);
    }

    /** The number of periods when the requested page lies past the end (the window count is then unknown). */
    private long settlementCount(Connection c, String schema, UUID account, UUID merchant,
            SettlementSchedule schedule, long first, long last) throws SQLException {
        return settlements(c, schema, account, merchant, schedule, first, last, Integer.MAX_VALUE, 0).rows().size();
    }

    private static void addRange(List<Object> parameters, SettlementSchedule schedule, long first, long last) {
        if (first != Long.MIN_VALUE) {
            parameters.add(Timestamp.from(schedule.start(first)));
        }
        if (last != Long.MAX_VALUE) {
            parameters.add(Timestamp.from(schedule.end(last)));
        }
    }

    /** The account's schedule: from its most recently updated merchant's event (account settings travel on each). */
    public SettlementSchedule schedule(Connection c, String schema, UUID account) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("select settlement_frequency, settlement_anchor from " + schema
                + ".merchant_row where account_id = ? order by source_updated_at desc nulls last, version desc "
                + "limit 1")) {
            st.setObject(1, account);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return SettlementSchedule.DEFAULT;
                }
                Timestamp anchor = rs.getTimestamp(2);
                return SettlementSchedule.of(rs.getString(1), anchor == null ? null : anchor.toInstant());
            }
        }
    }

    // ----------------------------------------------------------------------------------------------- helpers

    static int bind(PreparedStatement st, List<Object> parameters, int from) throws SQLException {
        int i = from;
        for (Object value : parameters) {
            st.setObject(i++, value);
        }
        return i;
    }

    static String time(ResultSet rs, int column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant().toString();
    }

    static String str(Object value) {
        return value == null ? null : value.toString();
    }

    /**
     * A USD figure as it is: sums of exact amounts are never rounded (fees are whole cents already); shown with at
     * least two decimals.
     */
    static BigDecimal cents(BigDecimal value) {
        return value.scale() < 2 ? value.setScale(2, RoundingMode.UNNECESSARY) : value;
    }
}
