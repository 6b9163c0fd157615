package dev.cryptopay.support.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.Test;

/**
 * The throttled strategy's lookup of a partition's committed offset at its first record is answered from what was
 * read when the partition was assigned, on the polling thread, instead of waiting behind the next poll
 * (docs/decisions.md §130); anything not read there is looked up by SmallRye's consumer, as before.
 */
class CommittedAtAssignmentTest {

    private static final TopicPartition FIRST = new TopicPartition("payments.transactions.v1", 0);
    private static final TopicPartition SECOND = new TopicPartition("payments.transactions.v1", 1);
    /** What SmallRye's own lookup answers here: an offset no test commits, so the tests can tell the two apart. */
    private static final Map<TopicPartition, OffsetAndMetadata> LOOKED_UP = Map.of(FIRST, new OffsetAndMetadata(999));

    /** SmallRye's consumer around a Kafka consumer: records its lookups, answers LOOKED_UP; nothing else is used. */
    @SuppressWarnings("unchecked")
    static KafkaConsumer<String, String> smallRye(org.apache.kafka.clients.consumer.Consumer<String, String>
            kafka, List<String> lookups) {
        return (KafkaConsumer<String, String>) Proxy.newProxyInstance(KafkaConsumer.class.getClassLoader(),
                new Class<?>[] { KafkaConsumer.class }, (proxy, method, args) -> switch (method.getName()) {
                    case "unwrap" -> kafka;
                    case "committed" -> {
                        lookups.add(Arrays.toString((Object[]) args[0]));
                        yield Uni.createFrom().item(LOOKED_UP);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    static MockConsumer<String, String> kafkaWithCommitted(long firstOffset) {
        MockConsumer<String, String> kafka = new MockConsumer<>("earliest");
        kafka.assign(Set.of(FIRST, SECOND));
        kafka.commitSync(Map.of(FIRST, new OffsetAndMetadata(firstOffset)));
        return kafka;
    }

    /** A Kafka consumer whose read of committed offsets fails with {@code failure}. */
    private static MockConsumer<String, String> failingWith(RuntimeException failure) {
        return new MockConsumer<>("earliest") {
            @Override
            public synchronized Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions,
                    Duration timeout) {
                throw failure;
            }
        };
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(CommittedAtAssignment<?, ?> consumer,
            TopicPartition... partitions) {
        return consumer.committed(partitions).await().atMost(Duration.ofSeconds(5));
    }

    @Test
    void theFirstLookupOfAnAssignedPartitionIsAnsweredFromTheAssignmentOnce() {
        List<String> lookups = new ArrayList<>();
        CommittedAtAssignment<String, String> consumer = new CommittedAtAssignment<>(
                smallRye(kafkaWithCommitted(42), lookups));

        consumer.assigned(List.of(FIRST, SECOND));

        assertEquals(Map.of(FIRST, new OffsetAndMetadata(42)), committed(consumer, FIRST),
                "the offset committed when the partition was assigned");
        assertEquals(Map.of(), committed(consumer, SECOND), "a partition the group never committed: none");
        assertEquals(List.of(), lookups, "SmallRye's consumer was not asked: nothing waited behind a poll");

        assertSame(LOOKED_UP, committed(consumer, FIRST), "a second lookup is the consumer's own");
        assertEquals(List.of("[" + FIRST + "]"), lookups);
    }

    @Test
    void revokedPartitionsAndAnAssignmentNotReadAreLookedUpByTheConsumer() {
        List<String> lookups = new ArrayList<>();
        CommittedAtAssignment<String, String> revoked = new CommittedAtAssignment<>(
                smallRye(kafkaWithCommitted(42), lookups));
        revoked.assigned(List.of(FIRST, SECOND));
        revoked.revoked(List.of(FIRST));
        assertSame(LOOKED_UP, committed(revoked, FIRST, SECOND), "one partition not known: the consumer answers all");
        assertEquals(List.of("[" + FIRST + ", " + SECOND + "]"), lookups);

        lookups.clear();
        CommittedAtAssignment<String, String> notRead = new CommittedAtAssignment<>(
                smallRye(failingWith(new TimeoutException("the broker did not answer")), lookups));
        notRead.assigned(List.of(FIRST));
        assertSame(LOOKED_UP, committed(notRead, FIRST), "a read that failed leaves the lookup to the consumer");
        assertEquals(List.of("[" + FIRST + "]"), lookups);
    }

    @Test
    void aStopThatWakesThePollIsNotSwallowed() {
        CommittedAtAssignment<String, String> consumer = new CommittedAtAssignment<>(
                smallRye(failingWith(new WakeupException()), new ArrayList<>()));
        assertThrows(WakeupException.class, () -> consumer.assigned(List.of(FIRST)),
                "the poll must end for the close the stop queued behind it");
    }
}
