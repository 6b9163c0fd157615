package dev.cryptopay.support.inbox;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;

/**
 * The Kafka consumer as SmallRye's throttled commit strategy sees it ({@link ThrottledUntilStop}), with one
 * difference: the committed offsets of the partitions just assigned are read at the assignment, on the polling thread
 * inside the poll that assigned them, and the strategy's lookup at a partition's first record is answered from them.
 *
 * <p>Why: SmallRye runs that lookup on the polling thread, queued behind the next poll, which waits up to the poll
 * timeout for records (the suite's 2 s, docs/decisions.md §130). The first record of each partition after a start or
 * a rebalance, and every record of the channel behind it, would wait for that poll to end: up to the poll timeout in a
 * quiet topic (about 11 s by hand with a 10 s timeout). Read at the assignment, the offsets cost the same round trip
 * to the broker, earlier. An offset read there is at most older than the one the lookup would have found (the
 * rebalance listener may commit carried offsets after it), and the strategy uses it only to ignore records at or below
 * it, which a consumer that starts at its committed position never reads. A read that fails leaves the lookup to
 * SmallRye, as before. Everything else is the consumer's.
 */
final class CommittedAtAssignment<K, V> implements KafkaConsumer<K, V> {

    private static final Logger LOG = Logger.getLogger(CommittedAtAssignment.class);
    /** How long the assignment waits for the broker before it leaves the lookup to the first record. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

    private final KafkaConsumer<K, V> consumer;
    /** Per partition assigned and not yet looked up: its committed offset, empty where the group has none. */
    private final Map<TopicPartition, Optional<OffsetAndMetadata>> atAssignment = new ConcurrentHashMap<>();

    CommittedAtAssignment(KafkaConsumer<K, V> consumer) {
        this.consumer = consumer;
    }

    /** Reads the partitions' committed offsets; called on the polling thread, inside the poll that assigned them. */
    void assigned(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.unwrap().committed(new HashSet<>(partitions),
                    READ_TIMEOUT);
            for (TopicPartition partition : partitions) {
                atAssignment.put(partition, Optional.ofNullable(committed.get(partition)));
            }
        } catch (WakeupException | InterruptException e) {
            throw e; // a stop woke the poll: it must end, as the lookup it replaces would have let it
        } catch (KafkaException e) {
            LOG.debugf("committed offsets of %s not read at the assignment, looked up at the first record: %s",
                    partitions, e.getMessage());
        }
    }

    /** Forgets what was read for partitions the consumer no longer holds. */
    void revoked(Collection<TopicPartition> partitions) {
        partitions.forEach(atAssignment::remove);
    }

    /** Answered from the assignment when every partition asked for was read there (once each), else by the consumer. */
    @Override
    public Uni<Map<TopicPartition, OffsetAndMetadata>> committed(TopicPartition... partitions) {
        Map<TopicPartition, OffsetAndMetadata> known = new HashMap<>();
        for (TopicPartition partition : partitions) {
            Optional<OffsetAndMetadata> offset = atAssignment.remove(partition);
            if (offset == null) {
                return consumer.committed(partitions);
            }
            offset.ifPresent(o -> known.put(partition, o));
        }
        return Uni.createFrom().item(known);
    }

    // Everything below is the consumer's own.

    @Override
    public Map<String, ?> configuration() {
        return consumer.configuration();
    }

    @Override
    public <R> Uni<R> runOnPollingThread(Function<Consumer<K, V>, R> action) {
        return consumer.runOnPollingThread(action);
    }

    @Override
    public Uni<Void> runOnPollingThread(java.util.function.Consumer<Consumer<K, V>> action) {
        return consumer.runOnPollingThread(action);
    }

    @Override
    public Uni<Set<TopicPartition>> pause() {
        return consumer.pause();
    }

    @Override
    public Uni<Set<TopicPartition>> paused() {
        return consumer.paused();
    }

    @Override
    public Uni<Void> resume() {
        return consumer.resume();
    }

    @Override
    public Consumer<K, V> unwrap() {
        return consumer.unwrap();
    }

    @Override
    public Uni<Void> commit(Map<TopicPartition, OffsetAndMetadata> map) {
        return consumer.commit(map);
    }

    @Override
    public Uni<Void> commitAsync(Map<TopicPartition, OffsetAndMetadata> map) {
        return consumer.commitAsync(map);
    }

    @Override
    public Uni<Map<TopicPartition, Long>> getPositions() {
        return consumer.getPositions();
    }

    @Override
    public Uni<Set<TopicPartition>> getAssignments() {
        return consumer.getAssignments();
    }

    @Override
    public Uni<Void> seek(TopicPartition partition, long offset) {
        return consumer.seek(partition, offset);
    }

    @Override
    public Uni<Void> seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        return consumer.seek(partition, offsetAndMetadata);
    }

    @Override
    public Uni<Void> seekToBeginning(Collection<TopicPartition> partitions) {
        return consumer.seekToBeginning(partitions);
    }

    @Override
    public Uni<Void> seekToEnd(Collection<TopicPartition> partitions) {
        return consumer.seekToEnd(partitions);
    }

    @Override
    public Uni<ConsumerGroupMetadata> consumerGroupMetadata() {
        return consumer.consumerGroupMetadata();
    }

    @Override
    public Uni<Void> resetToLastCommittedPositions() {
        return consumer.resetToLastCommittedPositions();
    }

    @Override
    public Uni<Void> resetToLastCommittedPositions(Collection<TopicPartition> partitions) {
        return consumer.resetToLastCommittedPositions(partitions);
    }

    @Override
    public Uni<Map<String, List<PartitionInfo>>> lisTopics() {
        return consumer.lisTopics();
    }

    @Override
    public Uni<Map<String, List<PartitionInfo>>> lisTopics(Duration timeout) {
        return consumer.lisTopics(timeout);
    }

    @Override
    public Uni<List<PartitionInfo>> partitionsFor(String topic) {
        return consumer.partitionsFor(topic);
    }
}
