package dev.cryptopay.reporting.projection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.store.StoreSchemas;
import dev.cryptopay.support.jdbc.CustomPlans;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Applies a batch of events of one topic to a store schema, on a connection whose transaction the caller owns.
 * Plain JDBC with statement batches: a poll's records cost a handful of round trips, not several per event.
 *
 * <p>Idempotent: every event id goes into {@code event_log} first (one statement per batch, {@code on conflict do
 * nothing}); only ids that were not there are applied. A second event with the same aggregate and version is a
 * duplicate as well. Order-safe: a state is written only when its (version, updatedAt) is above the stored one, so
 * an older version arriving late changes nothing but the count of versions seen, which is how gaps show.
 */
public final class Projector {

    private static final Logger LOG = Logger.getLogger(Projector.class);

    /** What one batch did. */
    public record Outcome(int received, int applied, int duplicates, int malformed) {
    }

    private record Event(String id, String type, String aggregateId, Long version, Instant time, JsonNode data) {
    }

    private Projector() {
    }

    public static Outcome apply(Connection c, String schema, String topic, List<String> values) throws SQLException {
        StoreSchemas.checked(schema);
        List<Event> events = new ArrayList<>(values.size());
        int malformed = 0;
        for (String value : values) {
            Event event = parse(topic, value);
            if (event == null) {
                malformed++;
            } else {
                events.add(event);
            }
        }
        List<Event> fresh = firstDeliveries(c, schema, topic, events);
        switch (topic) {
            case Topics.TRANSACTIONS -> applyTransactions(c, schema, fresh);
            case Topics.REFUNDS -> applyRefunds(c, schema, fresh);
            case Topics.MERCHANTS -> applyMerchants(c, schema, fresh);
            default -> throw new IllegalArgumentException("not a reporting topic: " + topic);
        }
        return new Outcome(values.size(), fresh.size(), events.size() - fresh.size(), malformed);
    }

    private static Event parse(String topic, String value) {
        try {
            CloudEvent event = CloudEvent.parse(value);
            JsonNode data = event.data();
            String aggregate = switch (topic) {
                case Topics.TRANSACTIONS -> Json.text(data, "transactionID");
                case Topics.REFUNDS -> Json.text(data, "refundID");
                default -> Json.text(data, "merchantId");
            };
            String account = Json.text(data, Topics.MERCHANTS.equals(topic) ? "accountId" : "accountID");
            if (Json.uuid(aggregate) == null || Json.uuid(account) == null) {
                LOG.warnf("skipping %s event %s: no valid aggregate or account id", topic, event.id());
                return null;
            }
            return new Event(event.id(), event.type(), aggregate, Json.whole(data, "version"),
                    Json.instant(event.time()), data);
        } catch (IllegalArgumentException e) {
            LOG.warnf("skipping a record on %s that is not a CloudEvent: %s", topic, e.getMessage());
            return null;
        }
    }

    /**
     * The inbox for a whole batch: inserts every event's id (and aggregate version) into {@code event_log} and
     * answers the events that were not there before, in their original order. The per-event
     * {@code Inbox.firstDelivery} of service-support would cost a round trip per event; this is the same guard in
     * one statement.
     */
    private static List<Event> firstDeliveries(Connection c, String schema, String topic, List<Event> events)
            throws SQLException {
        if (events.isEmpty()) {
            return events;
        }
        Set<String> fresh = new HashSet<>();
        try (PreparedStatement st = c.prepareStatement("insert into " + schema + ".event_log "
                + "(event_id, topic, aggregate_id, version, type, event_time) "
                + "select * from unnest(?::varchar[], ?::varchar[], ?::varchar[], ?::bigint[], ?::varchar[], "
                + "?::timestamptz[]) on conflict do nothing returning event_id")) {
            int n = events.size();
            String[] ids = new String[n];
            String[] topics = new String[n];
            String[] aggregates = new String[n];
            Long[] versions = new Long[n];
            String[] types = new String[n];
            Timestamp[] times = new Timestamp[n];
            for (int i = 0; i < n; i++) {
                Event e = events.get(i);
                ids[i] = e.id();
                topics[i] = topic;
                aggregates[i] = e.aggregateId();
                versions[i] = Topics.MERCHANTS.equals(topic) ? null : e.version();
                types[i] = e.type();
                times[i] = Json.timestamp(e.time());
            }
            st.setArray(1, c.createArrayOf("varchar", ids));
            st.setArray(2, c.createArrayOf("varchar", topics));
            st.setArray(3, c.createArrayOf("varchar", aggregates));
            st.setArray(4, c.createArrayOf("bigint", versions));
            st.setArray(5, c.createArrayOf("varchar", types));
            st.setArray(6, c.createArrayOf("timestamptz", times));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    fresh.add(rs.getString(1));
                }
            }
        }
        List<Event> result = new ArrayList<>(fresh.size());
        Set<String> taken = new HashSet<>();
        for (Event e : events) {
            if (fresh.contains(e.id()) && taken.add(e.id())) {
                result.add(e);
            }
        }
        return result;
    }

    // ---------------------------------------------------------------------------------------------- transactions

    private static final String TX_COLUMNS = "transaction_id, account_id, merchant_id, external_mid, descriptor, "
            + "reference_number, quote_id, status, payment_status, currency, total_local, total_usd, received_usd, "
            + "customer_fee_usd, fx_rate_to_usd, remaining_local, remaining_usd, kyc_triggered, travel_rule_triggered, "
            + "held_for_review, cancellation_reason, expiration, source_created_at, source_updated_at, version, "
            + "versions_seen, success_at, mdr_percentage, mdr_flat_rate, mdr_flat_currency, platform_collection, "
            + "platform_bps, platform_flat_cents, fee_mdr_usd, fee_platform_usd, fees_deducted_usd, merchant_fees, "
            + "resolution_logs, str_filing_reference";

    private static final String TX_UPSERT = "insert into %s.transaction_row (" + TX_COLUMNS + ") values ("
            + "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            + "?::jsonb, ?::jsonb, ?) on conflict (transaction_id) do update set "
            + updates(TX_COLUMNS, "transaction_id", "versions_seen", "success_at")
            + ", versions_seen = transaction_row.versions_seen + excluded.versions_seen"
            + ", success_at = least(transaction_row.success_at, excluded.success_at)"
            + " where (transaction_row.version, transaction_row.source_updated_at)"
            + " < (excluded.version, excluded.source_updated_at)";

    /** An older (or equal) state: only the bookkeeping changes. */
    private static final String TX_SEEN = "update %s.transaction_row set versions_seen = versions_seen + ?, "
            + "success_at = least(success_at, ?) where transaction_id = ?";

    private static final String PAYMENT_COLUMNS = "payment_request_id, transaction_id, account_id, position, "
            + "crypto_asset, crypto_network, address, from_address, expected_crypto, received_crypto, expected_usd, "
            + "received_usd, txn_hash, confirmation_count, gas_fee, gas_fee_units, status, fraud_pass, wallet_name, "
            + "crypto_rate_per_usd, completed_at, expiration, created_at, source_updated_at, tx_version";

    private static final String PAYMENT_UPSERT = "insert into %s.payment_row (" + PAYMENT_COLUMNS + ") values ("
            + "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            + "on conflict (payment_request_id) do update set " + updates(PAYMENT_COLUMNS, "payment_request_id")
            + " where (payment_row.tx_version, payment_row.source_updated_at)"
            + " < (excluded.tx_version, excluded.source_updated_at)";

    private static void applyTransactions(Connection c, String schema, List<Event> events) throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        Map<UUID, List<Event>> byTransaction = new LinkedHashMap<>();
        for (Event e : events) {
            if (Json.instant(e.data(), "updatedAt") == null || Json.instant(e.data(), "createdAt") == null
                    || Json.uuid(Json.text(e.data(), "merchantID")) == null) {
                LOG.warnf("transaction event %s lacks createdAt, updatedAt or merchantID; recorded, not applied", e.id());
                continue;
            }
            byTransaction.computeIfAbsent(UUID.fromString(e.aggregateId()), k -> new ArrayList<>()).add(e);
        }
        if (byTransaction.isEmpty()) {
            return;
        }
        try (PreparedStatement upsert = c.prepareStatement(TX_UPSERT.formatted(schema));
                PreparedStatement seen = c.prepareStatement(TX_SEEN.formatted(schema));
                PreparedStatement payments = c.prepareStatement(PAYMENT_UPSERT.formatted(schema))) {
            Batches batches = new Batches(upsert, seen, payments);
            byVersion(c, schema, "transaction_row", "transaction_id", byTransaction, (id, newest, all, newer) -> {
                Instant successAt = all.stream().filter(e -> Integer.valueOf(1).equals(Json.integer(e.data(), "status")))
                        .map(e -> Json.instant(e.data(), "updatedAt")).min(Comparator.naturalOrder()).orElse(null);
                if (newer) {
                    bindTransaction(upsert, newest, all.size(), successAt);
                    batches.add(upsert);
                    batches.add(payments, bindPayments(payments, newest));
                } else {
                    seen.setLong(1, all.size());
                    seen.setTimestamp(2, Json.timestamp(successAt));
                    seen.setObject(3, id);
                    batches.add(seen);
                }
            });
            batches.execute();
        }
    }

    /** What to write for one aggregate: its newest event of the batch, all its events, and whether it is newer. */
    private interface Write {
        void write(UUID id, Event newest, List<Event> all, boolean newer) throws SQLException;
    }

    /**
     * The order-safety rule shared by transactions and refunds: per aggregate, the batch's newest event is written
     * when its (version, updatedAt) is above the stored one; otherwise only the bookkeeping of versions seen.
     */
    private static void byVersion(Connection c, String schema, String table, String idColumn,
            Map<UUID, List<Event>> byAggregate, Write write) throws SQLException {
        Map<UUID, Order> stored = new HashMap<>();
        try (PreparedStatement st = CustomPlans.eachExecution(c.prepareStatement("select " + idColumn
                + ", version, source_updated_at from " + schema + "." + table + " where " + idColumn + " = any(?)"))) {
            st.setArray(1, c.createArrayOf("uuid", byAggregate.keySet().toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    stored.put(rs.getObject(1, UUID.class), new Order(rs.getLong(2), rs.getTimestamp(3).toInstant()));
                }
            }
        }
        for (Map.Entry<UUID, List<Event>> entry : byAggregate.entrySet()) {
            Event newest = entry.getValue().stream().max(Comparator.comparing(Projector::order)).orElseThrow();
            Order current = stored.get(entry.getKey());
            write.write(entry.getKey(), newest, entry.getValue(),
                    current == null || order(newest).compareTo(current) > 0);
        }
    }

    /** Statement batches executed only when they hold something. */
    private static final class Batches {
        private final List<PreparedStatement> statements;
        private final Map<PreparedStatement, Integer> counts = new HashMap<>();

        Batches(PreparedStatement... statements) {
            this.statements = List.of(statements);
        }

        void add(PreparedStatement st) throws SQLException {
            st.addBatch();
            add(st, 1);
        }

        /** Counts rows the caller already added to {@code st}. */
        void add(PreparedStatement st, int rows) {
            counts.merge(st, rows, Integer::sum);
        }

        void execute() throws SQLException {
            for (PreparedStatement st : statements) {
                if (counts.getOrDefault(st, 0) > 0) {
                    st.executeBatch();
                }
            }
        }
    }

    /** The order of a transaction's or refund's states: version, then updatedAt (for events without a version). */
    record Order(long version, Instant updatedAt) implements Comparable<Order> {
        @Override
        public int compareTo(Order other) {
            int byVersion = Long.compare(version, other.version);
            return byVersion != 0 ? byVersion : updatedAt.compareTo(other.updatedAt);
        }
    }

    private static Order order(Event e) {
        return new Order(e.version() == null ? 0 : e.version(), Json.instant(e.data(), "updatedAt"));
    }

    private static void bindTransaction(PreparedStatement st, Event e, int versionsSeen, Instant successAt)
            throws SQLException {
        JsonNode d = e.data();
        JsonNode amounts = Json.at(d, "amounts");
        JsonNode compliance = Json.at(d, "compliance");
        int status = Json.integer(d, "status") == null ? 0 : Json.integer(d, "status");
        String currency = Json.text(amounts, "currency");
        BigDecimal received = Json.decimal(amounts, "receivedUSD");
        BigDecimal fxRate = Json.decimal(amounts, "fxRateToUSD");
        JsonNode merchantFees = Json.at(d, "merchantFees");
        FeeTerms terms = status == 1 ? FeeTerms.of(merchantFees) : FeeTerms.NONE;
        FeeTerms.Fees fees = status == 1 ? terms.on(received, currency, fxRate) : FeeTerms.Fees.ZERO;
        if (!terms.flatRateConvertible(currency)) {
            LOG.warnf("transaction %s: the flat rate in %s cannot be converted to USD from the event; counted as 0",
                    e.aggregateId(), terms.mdrFlatCurrency());
        }
        int i = 1;
        st.setObject(i++, UUID.fromString(e.aggregateId()));
        st.setObject(i++, UUID.fromString(Json.text(d, "accountID")));
        st.setObject(i++, UUID.fromString(Json.text(d, "merchantID")));
        st.setString(i++, Json.text(d, "externalMID"));
        st.setString(i++, Json.text(d, "descriptor"));
        st.setString(i++, Json.text(d, "referenceNumber"));
        st.setString(i++, Json.text(d, "quoteID"));
        st.setShort(i++, (short) status);
        Integer paymentStatus = Json.integer(d, "paymentStatus");
        st.setShort(i++, (short) (paymentStatus == null ? 0 : paymentStatus));
        st.setString(i++, currency);
        st.setBigDecimal(i++, Json.decimal(amounts, "totalLocal"));
        st.setBigDecimal(i++, Json.decimal(amounts, "totalUSD"));
        st.setBigDecimal(i++, received);
        st.setBigDecimal(i++, Json.decimal(amounts, "customerFeeUSD"));
        st.setBigDecimal(i++, fxRate);
        st.setBigDecimal(i++, Json.decimal(d, "remainingLocal"));
        st.setBigDecimal(i++, Json.decimal(d, "remainingUSD"));
        st.setBoolean(i++, Boolean.TRUE.equals(Json.bool(compliance, "kycTriggered")));
        st.setBoolean(i++, Boolean.TRUE.equals(Json.bool(compliance, "travelRuleTriggered")));
        setBoolean(st, i++, Json.bool(compliance, "heldForReview"));
        st.setString(i++, Json.text(d, "cancellationReason"));
        st.setTimestamp(i++, Json.timestamp(Json.instant(d, "expiration")));
        st.setTimestamp(i++, Json.timestamp(Json.instant(d, "createdAt")));
        st.setTimestamp(i++, Json.timestamp(Json.instant(d, "updatedAt")));
        st.setLong(i++, e.version() == null ? 0 : e.version());
        st.setLong(i++, versionsSeen);
        st.setTimestamp(i++, Json.timestamp(successAt));
        st.setBigDecimal(i++, terms.mdrPercentage());
        st.setBigDecimal(i++, terms.mdrFlatRate());
        st.setString(i++, terms.mdrFlatCurrency());
        st.setString(i++, terms.platformCollection());
        st.setBigDecimal(i++, terms.platformBps());
        st.setBigDecimal(i++, terms.platformFlatCents());
        st.setBigDecimal(i++, fees.mdrUSD());
        st.setBigDecimal(i++, fees.platformUSD());
        st.setBigDecimal(i++, fees.deductedUSD());
        st.setString(i++, status == 1 && merchantFees != null ? merchantFees.toString() : null);
        // compliance.resolutionLogs and strFilingReference as the event carries them (null in an event that has none)
        JsonNode logs = Json.at(compliance, "resolutionLogs");
        st.setString(i++, logs == null || logs.isNull() ? null : logs.toString());
        st.setString(i, Json.text(compliance, "strFilingReference"));
    }

    private static int bindPayments(PreparedStatement st, Event e) throws SQLException {
        JsonNode d = e.data();
        JsonNode list = Json.at(d, "payments");
        if (list == null || !list.isArray()) {
            return 0;
        }
        UUID transactionId = UUID.fromString(e.aggregateId());
        UUID accountId = UUID.fromString(Json.text(d, "accountID"));
        Timestamp updatedAt = Json.timestamp(Json.instant(d, "updatedAt"));
        int rows = 0;
        for (int position = 0; position < list.size(); position++) {
            JsonNode p = list.get(position);
            UUID id = Json.uuid(Json.text(p, "paymentRequestID"));
            if (id == null) {
                continue;
            }
            int i = 1;
            st.setObject(i++, id);
            st.setObject(i++, transactionId);
            st.setObject(i++, accountId);
            st.setInt(i++, position);
            st.setString(i++, Json.text(p, "cryptoAsset"));
            st.setString(i++, Json.text(p, "cryptoNetwork"));
            st.setString(i++, Json.text(p, "address"));
            st.setString(i++, Json.text(p, "fromAddress"));
            st.setBigDecimal(i++, Json.decimal(p, "expectedCrypto"));
            st.setBigDecimal(i++, Json.decimal(p, "receivedCrypto"));
            st.setBigDecimal(i++, Json.decimal(p, "expectedUSD"));
            st.setBigDecimal(i++, Json.decimal(p, "receivedUSD"));
            st.setString(i++, Json.text(p, "txnHash"));
            Integer confirmations = Json.integer(p, "confirmationCount");
            if (confirmations == null) {
                st.setNull(i++, Types.INTEGER);
            } else {
                st.setInt(i++, confirmations);
            }
            st.setBigDecimal(i++, Json.decimal(p, "gasFee"));
            st.setString(i++, Json.text(p, "gasFeeUnits"));
            Integer status = Json.integer(p, "status");
            if (status == null) {
                st.setNull(i++, Types.SMALLINT);
            } else {
                st.setShort(i++, (short) (int) status);
            }
            setBoolean(st, i++, Json.bool(p, "fraudPass"));
            st.setString(i++, Json.text(p, "walletName"));
            st.setBigDecimal(i++, Json.decimal(p, "cryptoRatePerUSD"));
            st.setTimestamp(i++, Json.timestamp(Json.instant(p, "completedAt")));
            st.setTimestamp(i++, Json.timestamp(Json.instant(p, "expiration")));
            st.setTimestamp(i++, Json.timestamp(Json.instant(p, "createdAt")));
            st.setTimestamp(i++, updatedAt);
            st.setLong(i, e.version() == null ? 0 : e.version());
            st.addBatch();
            rows++;
        }
        return rows;
    }

    // --------------------------------------------------------------------------------------------------- refunds

    private static final String REFUND_COLUMNS = "refund_id, transaction_id, account_id, merchant_id, "
            + "payment_request_id, crypto_asset, crypto_network, crypto_amount, fiat_amount, fiat_currency, amount_usd, "
            + "gas_fee, gas_fee_payer, receiver_address, status, reason, txn_hash, source_created_at, "
            + "source_updated_at, completed_at, version, versions_seen";

    private static final String REFUND_UPSERT = "insert into %s.refund_row (" + REFUND_COLUMNS + ") values ("
            + "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (refund_id) do update set "
            + updates(REFUND_COLUMNS, "refund_id", "versions_seen")
            + ", versions_seen = refund_row.versions_seen + excluded.versions_seen"
            + " where (refund_row.version, refund_row.source_updated_at)"
            + " < (excluded.version, excluded.source_updated_at)";

    private static final String REFUND_SEEN = "update %s.refund_row set versions_seen = versions_seen + ? "
            + "where refund_id = ?";

    private static void applyRefunds(Connection c, String schema, List<Event> events) throws SQLException {
        Map<UUID, List<Event>> byRefund = new LinkedHashMap<>();
        for (Event e : events) {
            if (Json.instant(e.data(), "updatedAt") == null) {
                LOG.warnf("refund event %s lacks updatedAt; recorded, not applied", e.id());
                continue;
            }
            byRefund.computeIfAbsent(UUID.fromString(e.aggregateId()), k -> new ArrayList<>()).add(e);
        }
        if (byRefund.isEmpty()) {
            return;
        }
        try (PreparedStatement upsert = c.prepareStatement(REFUND_UPSERT.formatted(schema));
                PreparedStatement seen = c.prepareStatement(REFUND_SEEN.formatted(schema))) {
            Batches batches = new Batches(upsert, seen);
            byVersion(c, schema, "refund_row", "refund_id", byRefund, (id, newest, all, newer) -> {
                if (newer) {
                    bindRefund(upsert, newest, all.size());
                    batches.add(upsert);
                } else {
                    seen.setLong(1, all.size());
                    seen.setObject(2, id);
                    batches.add(seen);
                }
            });
            batches.execute();
        }
    }

    private static void bindRefund(PreparedStatement st, Event e, int versionsSeen) throws SQLException {
        JsonNode d = e.data();
        int i = 1;
        st.setObject(i++, UUID.fromString(e.aggregateId()));
        st.setObject(i++, Json.uuid(Json.text(d, "transactionID")));
        st.setObject(i++, UUID.fromString(Json.text(d, "accountID")));
        st.setObject(i++, Json.uuid(Json.text(d, "merchantID")));
        st.setObject(i++, Json.uuid(Json.text(d, "paymentRequestID")));
        st.setString(i++, Json.text(d, "cryptoAsset"));
        st.setString(i++, Json.text(d, "cryptoNetwork"));
        st.setBigDecimal(i++, Json.decimal(d, "cryptoAmount"));
        st.setBigDecimal(i++, Json.decimal(d, "fiatAmount"));
        st.setString(i++, Json.text(d, "fiatCurrency"));
        st.setBigDecimal(i++, Json.decimal(d, "amountUSD"));
        st.setBigDecimal(i++, Json.decimal(d, "gasFee"));
        st.setString(i++, Json.text(d, "gasFeePayer"));
        st.setString(i++, Json.text(d, "receiverAddress"));
        Integer status = Json.integer(d, "status");
        st.setShort(i++, (short) (status == null ? 0 : status));
        st.setString(i++, Json.text(d, "reason"));
        st.setString(i++, Json.text(d, "txnHash"));
        st.setTimestamp(i++, Json.timestamp(Json.instant(d, "createdAt")));
        st.setTimestamp(i++, Json.timestamp(Json.instant(d, "updatedAt")));
        st.setTimestamp(i++, Json.timestamp(Json.instant(d, "completedAt")));
        st.setLong(i++, e.version() == null ? 0 : e.version());
        st.setLong(i, versionsSeen);
    }

    // ------------------------------------------------------------------------------------------------- merchants

    private static final String MERCHANT_UPSERT = "insert into %s.merchant_row (merchant_id, account_id, "
            + "external_mid, settlement_frequency, settlement_anchor, version, source_updated_at) "
            + "values (?, ?, ?, ?, ?, ?, ?) on conflict (merchant_id) do update set account_id = excluded.account_id, "
            + "external_mid = excluded.external_mid, settlement_frequency = excluded.settlement_frequency, "
            + "settlement_anchor = excluded.settlement_anchor, version = excluded.version, "
            + "source_updated_at = excluded.source_updated_at where merchant_row.version < excluded.version";

    private static void applyMerchants(Connection c, String schema, List<Event> events) throws SQLException {
        Map<String, Event> newest = new LinkedHashMap<>();
        for (Event e : events) {
            long version = Json.whole(e.data(), "version") == null ? 0 : Json.whole(e.data(), "version");
            newest.merge(e.aggregateId(), e, (a, b) -> version(b) > version(a) ? b : a);
        }
        if (newest.isEmpty()) {
            return;
        }
        try (PreparedStatement st = c.prepareStatement(MERCHANT_UPSERT.formatted(schema))) {
            for (Event e : newest.values()) {
                JsonNode d = e.data();
                st.setObject(1, UUID.fromString(e.aggregateId()));
                st.setObject(2, UUID.fromString(Json.text(d, "accountId")));
                st.setString(3, Json.text(d, "externalMID"));
                st.setString(4, Json.text(d, "settlementFrequency"));
                st.setTimestamp(5, Json.timestamp(Json.instant(d, "settlementAnchor")));
                st.setLong(6, version(e));
                st.setTimestamp(7, Json.timestamp(Json.instant(d, "updatedAt")));
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    private static long version(Event e) {
        Long version = Json.whole(e.data(), "version");
        return version == null ? 0 : version;
    }

    // ---------------------------------------------------------------------------------------------------- shared

    /** {@code a = excluded.a, b = excluded.b, ...} for every column but {@code skipped}. */
    private static String updates(String columns, String... skipped) {
        Set<String> skip = Set.of(skipped);
        List<String> parts = new ArrayList<>();
        for (String column : columns.split(",")) {
            String name = column.strip();
            if (!skip.contains(name)) {
                parts.add(name + " = excluded." + name);
            }
        }
        return String.join(", ", parts);
    }

    private static void setBoolean(PreparedStatement st, int index, Boolean value) throws SQLException {
        if (value == null) {
            st.setNull(index, Types.BOOLEAN);
        } else {
            st.setBoolean(index, value);
        }
    }
}
