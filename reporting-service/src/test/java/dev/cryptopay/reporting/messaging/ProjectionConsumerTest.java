package dev.cryptopay.reporting.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.projection.ProjectionWriter;
import dev.cryptopay.reporting.projection.Projector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a poll of several partitions becomes database transactions: a small poll one transaction with every
 * partition's records in order, a large one a transaction per partition (the store itself: ProjectionTest).
 */
class ProjectionConsumerTest {

    /** Records the batches it is asked to write, one call per database transaction. */
    static final class RecordingWriter extends ProjectionWriter {
        final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());

        RecordingWriter() {
            super(null, null, null);
        }

        @Override
        public Projector.Outcome write(String topic, List<String> values) {
            batches.add(List.copyOf(values));
            return new Projector.Outcome(values.size(), values.size(), 0, 0);
        }
    }

    private final RecordingWriter writer = new RecordingWriter();
    private final ProjectionConsumer consumer = new ProjectionConsumer(writer);

    @AfterEach
    void stop() {
        consumer.stop(null);
    }

    @Test
    void aSmallPollOfThreePartitionsIsOneTransactionWithEachPartitionsRecordsInOrder() throws InterruptedException {
        consumer.transactions(poll(3, 4)); // 12 records, 4 per partition

        assertEquals(1, writer.batches.size(), "one database transaction for the whole poll");
        List<String> written = writer.batches.get(0);
        assertEquals(12, written.size());
        for (int partition = 0; partition < 3; partition++) {
            assertEquals(List.of(value(partition, 0), value(partition, 1), value(partition, 2), value(partition, 3)),
                    ofPartition(written, partition), "partition " + partition + " in its order");
        }
    }

    @Test
    void aPollAboveTheBoundIsOneTransactionPerPartition() throws InterruptedException {
        int perPartition = ProjectionConsumer.ONE_TRANSACTION_UP_TO / 3 + 1; // 3 partitions: just over the bound
        consumer.transactions(poll(3, perPartition));

        assertEquals(3, writer.batches.size(), "a transaction per partition");
        List<List<String>> batches = new ArrayList<>(writer.batches);
        batches.sort(Comparator.comparing(batch -> batch.get(0)));
        for (int partition = 0; partition < 3; partition++) {
            List<String> expected = new ArrayList<>();
            for (int offset = 0; offset < perPartition; offset++) {
                expected.add(value(partition, offset));
            }
            assertEquals(expected, batches.get(partition), "partition " + partition + " alone, in its order");
        }
    }

    @Test
    void aPollWithoutValuesWritesNothing() throws InterruptedException {
        Map<TopicPartition, List<ConsumerRecord<String, String>>> byPartition = new HashMap<>();
        for (int partition = 0; partition < 2; partition++) {
            TopicPartition tp = new TopicPartition(Topics.TRANSACTIONS, partition);
            byPartition.put(tp, List.of(new ConsumerRecord<>(tp.topic(), partition, 0, "key", null)));
        }
        consumer.transactions(new ConsumerRecords<>(byPartition, Map.of()));

        assertEquals(List.of(), writer.batches, "tombstones only: no transaction");
    }

    private static ConsumerRecords<String, String> poll(int partitions, int perPartition) {
        Map<TopicPartition, List<ConsumerRecord<String, String>>> byPartition = new HashMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            TopicPartition tp = new TopicPartition(Topics.TRANSACTIONS, partition);
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            for (int offset = 0; offset < perPartition; offset++) {
                records.add(new ConsumerRecord<>(tp.topic(), partition, offset, "key-" + partition,
                        value(partition, offset)));
            }
            byPartition.put(tp, records);
        }
        return new ConsumerRecords<>(byPartition, Map.of());
    }

    private static String value(int partition, int offset) {
        return "p" + partition + "-" + String.format("%04d", offset);
    }

    private static List<String> ofPartition(List<String> written, int partition) {
        return written.stream().filter(v -> v.startsWith("p" + partition + "-")).toList();
    }
}
