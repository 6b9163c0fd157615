package dev.cryptopay.reporting.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.config.StreamTopics;
import dev.cryptopay.reporting.projection.ProjectionWriter;
import dev.cryptopay.reporting.projection.Projector;
import dev.cryptopay.support.lifecycle.Stopping;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a poll of several partitions becomes database transactions: a topic's records of a small poll one transaction
 * with every partition's records in order, of a large one a transaction per partition, and each topic its own (the
 * store itself: ProjectionTest).
 */
class ProjectionConsumerTest {

    /** Records the batches it is asked to write, one call per database transaction, and their topics. */
    static final class RecordingWriter extends ProjectionWriter {
        final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
        final List<String> topics = Collections.synchronizedList(new ArrayList<>());

        RecordingWriter() {
            super(null, null, null);
        }

        @Override
        public Projector.Outcome write(String topic, List<String> values) {
            batches.add(List.copyOf(values));
            topics.add(topic);
            return new Projector.Outcome(values.size(), values.size(), 0, 0);
        }
    }

    private final RecordingWriter writer = new RecordingWriter();
    /** The merchants topic renamed, as a benchmark does: the projection still knows it as the merchants topic. */
    private static final String RENAMED_MERCHANTS = "bench-run.merchants";
    private final ProjectionConsumer consumer = new ProjectionConsumer(writer, new StreamTopics("reporting-test",
            Map.of(Topics.MERCHANTS, RENAMED_MERCHANTS), "127.0.0.1:1"), new Stopping());

    @AfterEach
    void stop() {
        consumer.stop(null);
    }

    @Test
    void aSmallPollOfThreePartitionsIsOneTransactionWithEachPartitionsRecordsInOrder() throws InterruptedException {
        consumer.apply(poll(3, 4)); // 12 records, 4 per partition

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
        consumer.apply(poll(3, perPartition));

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
        consumer.apply(new ConsumerRecords<>(byPartition, Map.of()));

        assertEquals(List.of(), writer.batches, "tombstones only: no transaction");
    }

    @Test
    void aPollOfSeveralTopicsIsATransactionPerTopicUnderTheProjectionsNames() throws InterruptedException {
        Map<TopicPartition, List<ConsumerRecord<String, String>>> byPartition = new HashMap<>();
        TopicPartition merchants = new TopicPartition(RENAMED_MERCHANTS, 0);
        byPartition.put(merchants, List.of(new ConsumerRecord<>(merchants.topic(), 0, 0, "m", "merchant-0"),
                new ConsumerRecord<>(merchants.topic(), 0, 1, "m", "merchant-1")));
        for (int partition = 0; partition < 2; partition++) {
            TopicPartition tp = new TopicPartition(Topics.TRANSACTIONS, partition);
            byPartition.put(tp, List.of(new ConsumerRecord<>(tp.topic(), partition, 0, "t", value(partition, 0))));
        }
        consumer.apply(new ConsumerRecords<>(byPartition, Map.of()));

        assertEquals(2, writer.batches.size(), "one transaction per topic: " + writer.topics);
        assertEquals(Set.of(Topics.MERCHANTS, Topics.TRANSACTIONS), Set.copyOf(writer.topics),
                "written under the projection's topic names");
        int merchantsAt = writer.topics.indexOf(Topics.MERCHANTS);
        int transactionsAt = writer.topics.indexOf(Topics.TRANSACTIONS);
        assertEquals(List.of("merchant-0", "merchant-1"), writer.batches.get(merchantsAt),
                "the renamed topic's records, as merchant events, in order");
        assertEquals(List.of(value(0, 0), value(1, 0)), writer.batches.get(transactionsAt).stream().sorted().toList());
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
