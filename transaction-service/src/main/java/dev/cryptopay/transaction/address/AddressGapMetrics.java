package dev.cryptopay.transaction.address;

import dev.cryptopay.support.security.KeyHash;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.agroal.DataSource;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Per extended public key, the run of issued-but-unfunded indexes (docs/decisions.md §57): how many indexes were
 * handed out after the last one whose address received funds (a transfer seen, not dropped), or all of them when none
 * did. A wallet that restores from the xpub stops scanning after its gap limit of unused addresses in a row, so
 * funds sent beyond a longer run are not shown in the merchant's wallet until its gap limit is raised
 * (docs/performance.md, "Gap limit").
 *
 * <p>Gauge {@code cryptopay.address.unfunded.run}, tag {@code xpub_sha256}: the first 16 hex digits of the SHA-256 of
 * the xpub (the xpub itself is not put into metrics: it reveals every address of the merchant). Gauge
 * {@code cryptopay.address.unfunded.run.max}: the longest run over all xpubs. Computed only when scraped, by one
 * query over all cursors at most every {@link #REFRESH}; nothing runs while nobody scrapes.
 */
@Startup
@ApplicationScoped
public class AddressGapMetrics {

    static final String METRIC = "cryptopay.address.unfunded.run";
    static final Duration REFRESH = Duration.ofSeconds(30);

    static final String RUNS = """
            select c.xpub, c.next_index - 1 - coalesce((select pr.derivation_index from payment_request pr
                    where pr.xpub = c.xpub and exists (select 1 from payment_transfer t
                        where t.payment_request_id = pr.id and t.status <> -1)
                    order by pr.derivation_index desc limit 1), -1)
            from address_cursor c""";

    private static final Logger LOG = Logger.getLogger(AddressGapMetrics.class);

    private final AgroalDataSource addresses;
    private final MeterRegistry registry;
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    /** The xpubs whose gauge is registered (the creation path checks this set, never hashes again). */
    private final Set<String> watched = ConcurrentHashMap.newKeySet();
    private volatile Map<String, Long> runs = Map.of();
    private volatile long refreshedAt = Long.MIN_VALUE;

    public AddressGapMetrics(@DataSource("addresses") AgroalDataSource addresses, MeterRegistry registry) {
        this.addresses = addresses;
        this.registry = registry;
        Gauge.builder(METRIC + ".max", this, m -> m.current().values().stream().mapToLong(Long::longValue).max()
                .orElse(0)).description("Longest run of issued-but-unfunded address indexes over all xpubs")
                .register(registry);
    }

    /** Makes sure {@code xpub} has its gauge (called when an index of it is handed out). */
    void watch(String xpub) {
        if (watched.add(xpub)) {
            register(fingerprint(xpub)); // hashed once per xpub, not on every creation
        }
    }

    /** The run of issued-but-unfunded indexes of the xpub with this fingerprint, as of the last refresh. */
    public long run(String fingerprint) {
        return current().getOrDefault(fingerprint, 0L);
    }

    /** Runs by xpub fingerprint, refreshed when older than {@link #REFRESH}. */
    synchronized Map<String, Long> current() {
        long now = System.nanoTime();
        if (refreshedAt != Long.MIN_VALUE && now - refreshedAt < REFRESH.toNanos()) {
            return runs;
        }
        refresh();
        return runs;
    }

    /** Reads the runs of every xpub now (also used by tests). */
    synchronized void refresh() {
        Map<String, Long> fresh = new HashMap<>();
        try (Connection connection = addresses.getConnection();
                PreparedStatement st = connection.prepareStatement(RUNS);
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                fresh.put(fingerprint(rs.getString(1)), rs.getLong(2));
            }
        } catch (SQLException e) {
            LOG.warnf("reading the runs of unfunded address indexes failed: %s", e.getMessage());
            return;
        }
        runs = Map.copyOf(fresh);
        refreshedAt = System.nanoTime();
        fresh.keySet().forEach(this::register);
    }

    private void register(String fingerprint) {
        if (registered.add(fingerprint)) {
            Gauge.builder(METRIC, this, m -> m.run(fingerprint)).tag("xpub_sha256", fingerprint)
                    .description("Address indexes of the xpub handed out after the last one that received funds")
                    .register(registry);
        }
    }

    /** The xpub's tag: the first 16 hex digits of SHA-256 over its text ({@code printf %s XPUB | sha256sum}). */
    public static String fingerprint(String xpub) {
        return KeyHash.of(xpub).substring(0, 16);
    }
}
