package dev.cryptopay.support.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptopay.support.lifecycle.Stopping;
import dev.cryptopay.support.testing.CapturedLog;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.commit.KafkaCommitHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The commit strategy passes records on as SmallRye's throttled strategy does until the service is stopping or the
 * channel closes, then holds every record back without asking the throttled strategy (which would ask the Kafka
 * consumer, closed by then, for the partition's offset); everything else is the throttled strategy's
 * (docs/decisions.md §119).
 */
class ThrottledUntilStopTest {

    /** Records what the wrapped strategy was asked; passes each record on at once. */
    private static final class Throttled implements KafkaCommitHandler {
        final List<String> calls = new ArrayList<>();

        @Override
        public <K, V> Uni<IncomingKafkaRecord<K, V>> received(IncomingKafkaRecord<K, V> record) {
            calls.add("received");
            return Uni.createFrom().item(record);
        }

        @Override
        public <K, V> Uni<Void> handle(IncomingKafkaRecord<K, V> record) {
            calls.add("handle");
            return Uni.createFrom().voidItem();
        }

        @Override
        public void terminate(boolean graceful) {
            calls.add("terminate " + graceful);
        }

        @Override
        public void partitionsAssigned(Collection<TopicPartition> partitions) {
            calls.add("assigned " + partitions);
        }

        @Override
        public void partitionsRevoked(Collection<TopicPartition> partitions) {
            calls.add("revoked " + partitions);
        }
    }

    /** Over a Kafka consumer that holds the test's partitions; a lookup SmallRye's consumer answers is never used. */
    private static CommittedAtAssignment<String, String> committedAtAssignment() {
        return new CommittedAtAssignment<>(CommittedAtAssignmentTest.smallRye(
                CommittedAtAssignmentTest.kafkaWithCommitted(1), new ArrayList<>()));
    }

    @Test
    void passesRecordsOnUntilTheStopThenHoldsThemBack() {
        Throttled throttled = new Throttled();
        Stopping stopping = new Stopping();
        ThrottledUntilStop strategy = new ThrottledUntilStop(null, throttled, committedAtAssignment(), stopping,
                "events-in");

        // A record stands for itself here: neither strategy looks into it.
        assertEquals(null, strategy.received(null).await().atMost(Duration.ofSeconds(5)));
        assertEquals(List.of("received"), throttled.calls);

        stopping.begin();
        try (CapturedLog logged = CapturedLog.of(ThrottledUntilStop.class)) {
            Uni<IncomingKafkaRecord<Object, Object>> held = strategy.received(null);
            assertThrows(TimeoutException.class, () -> held.await().atMost(Duration.ofMillis(200)),
                    "held back: never handed to the consumer");
            strategy.terminate(false);
            strategy.received(null);
            assertEquals(List.of("INFO " + String.format(ThrottledUntilStop.HELD_AT_STOP, "events-in")),
                    logged.lines(), "one line, naming the stop");
        }
        assertEquals(List.of("received", "terminate false"), throttled.calls,
                "the throttled strategy is not asked once stopping");
    }

    @Test
    void holdsRecordsBackOnceTheChannelClosesAndLeavesTheRestToTheThrottledStrategy() {
        Throttled throttled = new Throttled();
        CommittedAtAssignment<String, String> committed = committedAtAssignment();
        ThrottledUntilStop strategy = new ThrottledUntilStop(null, throttled, committed, new Stopping(), "views-in");
        TopicPartition partition = new TopicPartition("payments.keys.v1", 0);

        strategy.partitionsAssigned(Set.of(partition));
        assertEquals(Map.of(), committed.committed(partition).await().atMost(Duration.ofSeconds(5)),
                "the partition's committed offset (none) was read at the assignment");
        assertSame(null, strategy.handle(null).await().atMost(Duration.ofSeconds(5)));
        strategy.partitionsRevoked(Set.of(partition));
        strategy.terminate(false);
        try (CapturedLog logged = CapturedLog.of(ThrottledUntilStop.class)) {
            Uni<IncomingKafkaRecord<Object, Object>> held = strategy.received(null);
            assertThrows(TimeoutException.class, () -> held.await().atMost(Duration.ofMillis(200)));
            assertEquals(List.of("INFO " + String.format(ThrottledUntilStop.HELD_AT_CLOSE, "views-in")),
                    logged.lines(), "one line, naming the channel's close and not a stop");
        }
        assertEquals(List.of("assigned [payments.keys.v1-0]", "handle", "revoked [payments.keys.v1-0]",
                "terminate false"), throttled.calls);
    }
}
