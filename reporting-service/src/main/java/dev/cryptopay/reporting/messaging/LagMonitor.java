package dev.cryptopay.reporting.messaging;

import dev.cryptopay.reporting.config.StreamTopics;
import dev.cryptopay.reporting.service.Reconciliation;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * The projection's lag: per topic, the records between the end of each partition and the consumer group's committed
 * offset (committed after each applied batch, so at most a few seconds behind what is applied). Measured every
 * {@code cryptopay.reporting.lag-interval} (15 s: as often as metrics are commonly scraped; each measurement is seven
 * requests to the broker, the group's offsets and per topic its partitions and their ends, and a database query,
 * docs/decisions.md §101) with an admin client, published as the gauge
 * {@code reporting.consumer.lag{topic}} and in the readiness detail; also the gap count
 * ({@code reporting.version.gaps{topic}}).
 */
@ApplicationScoped
public class LagMonitor {

    private static final Logger LOG = Logger.getLogger(LagMonitor.class);

    private final StreamTopics topics;
    private final Reconciliation reconciliation;
    private final Map<String, AtomicLong> lag = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> gaps = new ConcurrentHashMap<>();
    private volatile Admin admin;
    private volatile boolean measured;

    public LagMonitor(StreamTopics topics, Reconciliation reconciliation, MeterRegistry meters) {
        this.topics = topics;
        this.reconciliation = reconciliation;
        for (StreamTopics.Source source : topics.sources()) {
            AtomicLong value = new AtomicLong(-1);
            lag.put(source.topic(), value);
            Gauge.builder("reporting.consumer.lag", value, AtomicLong::get).tag("topic", source.topic())
                    .description("records not yet applied by the projection (-1: not measured yet)").register(meters);
        }
        for (String topic : new String[] { "payments.transactions.v1", "payments.refunds.v1" }) {
            AtomicLong value = new AtomicLong();
            gaps.put(topic, value);
            Gauge.builder("reporting.version.gaps", value, AtomicLong::get).tag("topic", topic)
                    .description("aggregates with missing versions (GET /operator/reporting/gaps lists them)")
                    .register(meters);
        }
    }

    @Scheduled(every = "${cryptopay.reporting.lag-interval:15s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void measure() {
        try {
            measureNow();
        } catch (Exception e) {
            LOG.debugf("lag not measured: %s", e.getMessage());
        }
    }

    /** Measures lag and gaps now. */
    public Map<String, Long> measureNow() throws Exception {
        Map<String, Long> result = new LinkedHashMap<>();
        // The three topics share one consumer group (decisions §102): its committed offsets are read once.
        Map<String, Map<TopicPartition, OffsetAndMetadata>> committedByGroup = new HashMap<>();
        for (StreamTopics.Source source : topics.sources()) {
            Map<TopicPartition, OffsetAndMetadata> committed = committedByGroup.get(source.group());
            if (committed == null) {
                committed = admin().listConsumerGroupOffsets(source.group()).partitionsToOffsetAndMetadata()
                        .get(5, TimeUnit.SECONDS);
                committedByGroup.put(source.group(), committed);
            }
            long value = lagOf(source, committed);
            lag.get(source.topic()).set(value);
            result.put(source.topic(), value);
        }
        long[] counted = reconciliation.count();
        gaps.get("payments.transactions.v1").set(counted[0]);
        gaps.get("payments.refunds.v1").set(counted[1]);
        measured = true;
        return result;
    }

    private long lagOf(StreamTopics.Source source, Map<TopicPartition, OffsetAndMetadata> committed)
            throws Exception {
        Admin client = admin();
        var description = client.describeTopics(java.util.List.of(source.topic())).allTopicNames()
                .get(5, TimeUnit.SECONDS).get(source.topic());
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        description.partitions().forEach(p -> latest.put(new TopicPartition(source.topic(), p.partition()),
                OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = client.listOffsets(latest).all()
                .get(5, TimeUnit.SECONDS);
        long total = 0;
        for (var end : ends.entrySet()) {
            OffsetAndMetadata at = committed.get(end.getKey());
            total += Math.max(0, end.getValue().offset() - (at == null ? 0 : at.offset()));
        }
        return total;
    }

    /** Lag per topic as last measured (-1 before the first measurement). */
    public Map<String, Long> lag() {
        Map<String, Long> result = new LinkedHashMap<>();
        lag.forEach((topic, value) -> result.put(topic, value.get()));
        return result;
    }

    public Map<String, Long> gaps() {
        Map<String, Long> result = new LinkedHashMap<>();
        gaps.forEach((topic, value) -> result.put(topic, value.get()));
        return result;
    }

    public boolean measured() {
        return measured;
    }

    private Admin admin() {
        Admin client = admin;
        if (client == null) {
            synchronized (this) {
                if (admin == null) {
                    Properties props = new Properties();
                    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, topics.bootstrapServers());
                    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
                    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
                    admin = Admin.create(props);
                }
                client = admin;
            }
        }
        return client;
    }

    void close(@Observes ShutdownEvent event) {
        if (admin != null) {
            admin.close(java.time.Duration.ofSeconds(2));
        }
    }
}
