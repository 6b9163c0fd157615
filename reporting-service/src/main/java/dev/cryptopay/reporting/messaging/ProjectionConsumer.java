package dev.cryptopay.reporting.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.config.StreamTopics;
import dev.cryptopay.reporting.projection.ProjectionWriter;
import dev.cryptopay.support.inbox.BatchRetry;
import dev.cryptopay.support.inbox.OffsetCarryOver;
import dev.cryptopay.support.lifecycle.Stopping;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The projection's Kafka side: one consumer reads the three topics in batches (one poll's records, CloudEvent JSON
 * strings; one consumer, not one per topic: each consumer's poll and heartbeat threads cost the idle service about
 * 0.5% of a core, docs/decisions.md §102), and each topic's records of a poll are applied in one database
 * transaction, or for a large poll one per partition. Offsets are committed only after the poll's records are
 * stored; a batch that cannot be stored (database down) is retried here ({@link BatchRetry}), holding the consumer's
 * partitions rather than skipping events, until the service stops; a batch in hand at the stop is left unacknowledged
 * for the next start ({@link BatchRetry#settle}). Delivery is at least once; the store's inbox drops repeats.
 */
@ApplicationScoped
public class ProjectionConsumer {

    /** The channel of the three topics (group {@code reporting-service}, {@code REPORTING_GROUP}). */
    public static final String EVENTS = "events-in";
    /** The channel's rebalance listener: carries the offsets of the per-topic groups it replaced over. */
    public static final String CARRY_OVER = "reporting-service.carry-over";

    private final ProjectionWriter writer;
    private final StreamTopics topics;
    private final BatchRetry retry;
    /** Applies the partitions of one poll side by side (the topics have 3 partitions; up to 4 at once). */
    private final ExecutorService pool = Executors.newFixedThreadPool(4,
            Thread.ofPlatform().name("reporting-projection").daemon().factory());

    public ProjectionConsumer(ProjectionWriter writer, StreamTopics topics, Stopping stopping) {
        this.writer = writer;
        this.topics = topics;
        this.retry = new BatchRetry(stopping);
    }

    /** A poll's records, acknowledged once applied ({@link #apply}). */
    @Incoming(EVENTS)
    @Blocking(ordered = true)
    public CompletionStage<Void> events(Message<ConsumerRecords<String, String>> batch) {
        return retry.settle(batch, () -> apply(batch.getPayload()));
    }

    /** A poll's records, topic by topic: merchants in one transaction, transactions and refunds {@link #byPartition}. */
    void apply(ConsumerRecords<String, String> records) throws InterruptedException {
        Map<String, Map<TopicPartition, List<ConsumerRecord<String, String>>>> byTopic = new LinkedHashMap<>();
        for (TopicPartition partition : records.partitions()) {
            byTopic.computeIfAbsent(partition.topic(), t -> new LinkedHashMap<>())
                    .put(partition, records.records(partition));
        }
        for (Map.Entry<String, Map<TopicPartition, List<ConsumerRecord<String, String>>>> entry : byTopic.entrySet()) {
            String topic = topics.canonical(entry.getKey());
            ConsumerRecords<String, String> ofTopic = new ConsumerRecords<>(entry.getValue(), Map.of());
            if (Topics.MERCHANTS.equals(topic)) {
                List<String> values = new ArrayList<>();
                ofTopic.forEach(record -> {
                    if (record.value() != null) {
                        values.add(record.value());
                    }
                });
                if (!values.isEmpty()) {
                    consume(topic, values);
                }
            } else {
                byPartition(topic, ofTopic);
            }
        }
    }

    /** Until this consumer, each topic had a group of its own: {@code <group>.transactions} and so on. */
    @Produces
    @Singleton
    @Identifier(CARRY_OVER)
    static KafkaConsumerRebalanceListener carryOver(StreamTopics topics,
            @Identifier("default-kafka-broker") Map<String, Object> broker) {
        return new OffsetCarryOver(broker, OffsetCarryOver.suffixed(topics.shortNames()));
    }

    /**
     * A poll of up to this many records is applied in one database transaction, all its partitions together. Under
     * live traffic a poll holds a few records per partition, and a transaction per partition paid the store
     * pointer's lock, the read of the rows' versions, the statements and the commit three times over for them
     * (docs/performance.md, seventeenth step). Larger polls (a replay, a backlog) are applied partition by partition,
     * side by side, which is what makes a replay reach its rate (README, "Projection").
     */
    static final int ONE_TRANSACTION_UP_TO = 500;

    /**
     * A poll's records: up to {@link #ONE_TRANSACTION_UP_TO} in one database transaction; more, then one transaction
     * per partition, applied concurrently. Each partition's records stay in order either way, and the batch returns
     * (and its offsets can be committed) once all are stored. Partitions never share a transaction or refund (the
     * record key is its id), so their records never touch the same rows, together or side by side.
     */
    void byPartition(String topic, ConsumerRecords<String, String> records) throws InterruptedException {
        List<List<String>> parts = new ArrayList<>();
        for (TopicPartition partition : records.partitions()) {
            List<String> values = new ArrayList<>();
            for (ConsumerRecord<String, String> record : records.records(partition)) {
                if (record.value() != null) {
                    values.add(record.value());
                }
            }
            if (!values.isEmpty()) {
                parts.add(values);
            }
        }
        if (parts.isEmpty()) {
            return;
        }
        if (parts.size() == 1) {
            consume(topic, parts.get(0));
            return;
        }
        if (records.count() <= ONE_TRANSACTION_UP_TO) {
            consume(topic, parts.stream().flatMap(List::stream).toList());
            return;
        }
        List<Future<?>> running = new ArrayList<>();
        for (List<String> values : parts) {
            running.add(pool.submit(() -> {
                consume(topic, values);
                return null;
            }));
        }
        for (Future<?> future : running) {
            try {
                future.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("applying a partition's records failed", e.getCause());
            }
        }
    }

    /** Interrupts a batch under way; {@link Stopping} already knows of the stop (it observes the event first). */
    void stop(@Observes ShutdownEvent event) {
        pool.shutdownNow();
    }

    private void consume(String topic, List<String> values) throws InterruptedException {
        retry.run(() -> "applying " + values.size() + " events of " + topic, () -> writer.write(topic, values));
    }
}
