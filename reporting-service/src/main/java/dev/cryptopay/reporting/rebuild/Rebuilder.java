package dev.cryptopay.reporting.rebuild;

import dev.cryptopay.reporting.config.StreamTopics;
import dev.cryptopay.reporting.projection.Projector;
import dev.cryptopay.reporting.store.StoreSchemas;
import dev.cryptopay.support.problem.ApiException;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * Rebuilds the store from offset zero (README "Rebuild"): a fresh schema (store_N+1, migrated by Flyway) is filled
 * by a consumer that reads every partition of the three topics from the beginning, with the same {@link Projector}
 * the live consumers use. Once it has caught up, it takes the switch lock exclusively (live batches wait), reads
 * whatever arrived meanwhile up to the partitions' ends, and points the store at the new schema in that same
 * transaction. Live consumers then write into the new schema; events they had applied only to the old one were read
 * by the rebuild too, and those they apply again are duplicates the inbox drops. The old schema stays for comparison
 * until an operator drops it.
 */
@ApplicationScoped
public class Rebuilder {

    /** A rebuild as GET /operator/reporting/rebuild shows it. */
    public record Status(long rebuildID, String targetSchema, String status, String startedAt, String finishedAt,
            long events, String detail, String activeSchema) {
    }

    private static final Logger LOG = Logger.getLogger(Rebuilder.class);
    private static final int SWITCH_TIMEOUT_SECONDS = 600;

    private final AgroalDataSource dataSource;
    private final StoreSchemas schemas;
    private final StreamTopics topics;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong applied = new AtomicLong();

    public Rebuilder(AgroalDataSource dataSource, StoreSchemas schemas, StreamTopics topics) {
        this.dataSource = dataSource;
        this.schemas = schemas;
        this.topics = topics;
    }

    /** A rebuild cut off by a crash or a stop never finishes: it is marked abandoned when the service starts. */
    void onStart(@Observes StartupEvent event) {
        execute("update store_rebuild set status = 'abandoned', finished_at = now() where status = 'running'");
    }

    /** Starts a rebuild in the background; 409 while one runs. */
    public Status start() {
        if (!running.compareAndSet(false, true)) {
            throw ApiException.conflict("rebuild_running", "A rebuild is already running; see its status.");
        }
        try {
            String target = schemas.nextName();
            schemas.migrate(target);
            long id = insert(target);
            applied.set(0);
            Thread thread = new Thread(() -> run(id, target), "reporting-rebuild");
            thread.setDaemon(true);
            thread.start();
            return status().orElseThrow();
        } catch (RuntimeException e) {
            running.set(false);
            throw e;
        }
    }

    public Optional<Status> status() {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select id, target_schema, status, started_at, finished_at, events, "
                        + "detail from store_rebuild order by id desc limit 1")) {
            if (!rs.next()) {
                return Optional.empty();
            }
            boolean live = "running".equals(rs.getString(3));
            return Optional.of(new Status(rs.getLong(1), rs.getString(2), rs.getString(3), time(rs.getTimestamp(4)),
                    time(rs.getTimestamp(5)), live ? applied.get() : rs.getLong(6), rs.getString(7),
                    schemas.active()));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the rebuild status", e);
        }
    }

    private void run(long id, String target) {
        try (KafkaConsumer<String, String> consumer = consumer()) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (StreamTopics.Source source : topics.sources()) {
                consumer.partitionsFor(source.topic(), Duration.ofSeconds(30))
                        .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            LOG.infof("rebuild %d: reading %d partitions from offset zero into %s", id, partitions.size(), target);
            while (!caughtUp(consumer, partitions)) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                if (!records.isEmpty()) {
                    QuarkusTransaction.requiringNew().run(() -> apply(target, records, null));
                }
            }
            QuarkusTransaction.requiringNew().timeout(SWITCH_TIMEOUT_SECONDS).run(() -> switchOver(consumer,
                    partitions, target));
            schemas.switched(target);
            finish(id, "done", null);
            LOG.infof("rebuild %d: %d events applied; %s is the live store", id, applied.get(), target);
        } catch (RuntimeException e) {
            LOG.errorf(e, "rebuild %d into %s failed", id, target);
            finish(id, "failed", e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            running.set(false);
        }
    }

    /** Under the exclusive switch lock: the last records up to the partitions' ends, then the pointer. */
    private void switchOver(KafkaConsumer<String, String> consumer, List<TopicPartition> partitions, String target) {
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement lock = c.prepareStatement("select pg_advisory_xact_lock(?)")) {
                lock.setLong(1, StoreSchemas.SWITCH_LOCK);
                lock.execute();
            }
            while (!caughtUp(consumer, partitions)) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (!records.isEmpty()) {
                    apply(target, records, c);
                }
            }
            schemas.switchTo(c, target);
        } catch (SQLException e) {
            throw new IllegalStateException("switching to " + target + " failed", e);
        }
    }

    private void apply(String target, ConsumerRecords<String, String> records, Connection given) {
        Map<String, List<String>> byTopic = new LinkedHashMap<>();
        for (ConsumerRecord<String, String> record : records) {
            if (record.value() != null) {
                byTopic.computeIfAbsent(record.topic(), k -> new ArrayList<>()).add(record.value());
            }
        }
        try (Connection own = given == null ? dataSource.getConnection() : null) {
            Connection c = given == null ? own : given;
            for (Map.Entry<String, List<String>> entry : byTopic.entrySet()) {
                Projector.apply(c, target, canonical(entry.getKey()), entry.getValue());
                applied.addAndGet(entry.getValue().size());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("applying a rebuild batch failed", e);
        }
    }

    /** The projection's topic a configured topic stands for (the projection may read renamed topics). */
    private String canonical(String topic) {
        return topics.canonical(topic);
    }

    private static boolean caughtUp(KafkaConsumer<String, String> consumer, List<TopicPartition> partitions) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
        for (TopicPartition partition : partitions) {
            if (consumer.position(partition, Duration.ofSeconds(30)) < ends.get(partition)) {
                return false;
            }
        }
        return true;
    }

    private KafkaConsumer<String, String> consumer() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, topics.bootstrapServers());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 16 * 1024 * 1024);
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    private long insert(String target) {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(
                "insert into store_rebuild (target_schema, status) values (?, 'running') returning id")) {
            st.setString(1, target);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record the rebuild", e);
        }
    }

    private void finish(long id, String status, String detail) {
        try (Connection c = dataSource.getConnection(); PreparedStatement st = c.prepareStatement(
                "update store_rebuild set status = ?, finished_at = now(), events = ?, detail = ? where id = ?")) {
            st.setString(1, status);
            st.setLong(2, applied.get());
            st.setString(3, detail);
            st.setLong(4, id);
            st.executeUpdate();
        } catch (SQLException e) {
            LOG.errorf(e, "cannot record the end of rebuild %d", id);
        }
    }

    private void execute(String sql) {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String time(Timestamp value) {
        return value == null ? null : value.toInstant().toString();
    }
}
