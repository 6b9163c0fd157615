package dev.cryptopay.reporting.service;

import dev.cryptopay.reporting.store.StoreSchemas;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;

/**
 * The transaction listing as CSV: every row the filters match (no limit or offset), streamed from a database cursor
 * in pages of {@value #FETCH} rows, so memory stays constant however many rows there are. One line per transaction;
 * its payments are joined with {@code ;} in their order.
 *
 * <p>RFC 4180: CRLF line ends, a header line, fields holding a comma, quote, CR or LF quoted with quotes doubled.
 * Spreadsheet formula injection: a text field starting with {@code = + - @}, tab or CR gets a leading apostrophe
 * (OWASP's advice), so a spreadsheet shows it as text. Numbers and timestamps are written by this service and never
 * start with those characters except a negative status, which is not text. Hand-written (30 lines) because the CSV
 * libraries at hand (Commons CSV, OpenCSV) do not do the formula escaping and would add a dependency for the rest.
 */
@ApplicationScoped
public class CsvExport {

    static final int FETCH = 500;
    public static final List<String> HEADER = List.of("transactionID", "accountID", "merchantID", "externalMID",
            "descriptor", "referenceNumber", "status", "paymentStatus", "currency", "totalLocal", "totalUSD",
            "receivedUSD", "customerFeeUSD", "fxRateToUSD", "cancellationReason", "expiration", "sourceCreatedAt",
            "sourceUpdatedAt", "paymentRequestIDs", "cryptoAssets", "cryptoNetworks", "addresses", "fromAddresses",
            "receivedCrypto", "txnHashes");
    /** Which columns are free text (escaped against formula injection); the rest are numbers or ids. */
    private static final boolean[] TEXT = { false, false, false, true, true, true, false, false, true, false, false,
            false, false, false, true, false, false, false, true, true, true, true, true, false, true };

    private final AgroalDataSource dataSource;
    private final StoreSchemas schemas;

    public CsvExport(AgroalDataSource dataSource, StoreSchemas schemas) {
        this.dataSource = dataSource;
        this.schemas = schemas;
    }

    public void write(TransactionFilter filter, OutputStream out) {
        String schema = schemas.active();
        TransactionFilter.Where where = filter.where();
        String sql = "select " + ReportQueries.ROW_COLUMNS + ", p.ids, p.assets, p.networks, p.addresses, p.froms, "
                + "p.received, p.hashes from " + schema + ".transaction_row t left join lateral ("
                + "select string_agg(payment_request_id::text, ';' order by position) ids, "
                + "string_agg(coalesce(crypto_asset, ''), ';' order by position) assets, "
                + "string_agg(coalesce(crypto_network, ''), ';' order by position) networks, "
                + "string_agg(coalesce(address, ''), ';' order by position) addresses, "
                + "string_agg(coalesce(from_address, ''), ';' order by position) froms, "
                + "string_agg(coalesce(received_crypto::text, ''), ';' order by position) received, "
                + "string_agg(coalesce(txn_hash, ''), ';' order by position) hashes "
                + "from " + schema + ".payment_row where transaction_id = t.transaction_id) p on true where "
                + where.sql() + " order by t.source_created_at desc, t.transaction_id desc";
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        try (Connection c = dataSource.getConnection()) {
            // A cursor needs a transaction: read-only, rolled back at the end.
            c.setAutoCommit(false);
            try (PreparedStatement st = c.prepareStatement(sql)) {
                st.setFetchSize(FETCH);
                ReportQueries.bind(st, where.parameters(), 1);
                line(writer, HEADER.toArray(String[]::new), null);
                String[] cells = new String[HEADER.size()];
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        for (int i = 0; i < cells.length; i++) {
                            cells[i] = cell(rs.getObject(i + 1));
                        }
                        line(writer, cells, TEXT);
                    }
                }
            } finally {
                c.rollback();
            }
            writer.flush();
        } catch (SQLException e) {
            throw new IllegalStateException("exporting transactions failed", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String cell(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Timestamp t) {
            return t.toInstant().toString();
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return value.toString();
    }

    static void line(Writer writer, String[] cells, boolean[] text) throws IOException {
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                writer.write(',');
            }
            writer.write(escape(cells[i], text == null || text[i]));
        }
        writer.write("\r\n");
    }

    /** One field: formula-neutralised when it is text, then quoted per RFC 4180 when it needs to be. */
    static String escape(String value, boolean text) {
        String v = value;
        if (text && !v.isEmpty() && "=+-@\t\r".indexOf(v.charAt(0)) >= 0) {
            v = "'" + v;
        }
        if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\r') >= 0 || v.indexOf('\n') >= 0) {
            return '"' + v.replace("\"", "\"\"") + '"';
        }
        return v;
    }
}
