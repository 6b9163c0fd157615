package dev.cryptopay.support.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * {@link OffsetCarryOver} on the real test broker: a group that replaces per-topic groups starts each partition where
 * the previous group of its topic stopped, commits that at once, keeps its own offsets where it has them, and starts
 * from the beginning only where neither group has read.
 */
@QuarkusTest
class OffsetCarryOverTest {

    @Test
    void startsWherePreviousGroupsStoppedAndCommitsThatForItself() throws Exception {
        String run = UUID.randomUUID().toString();
        String first = "support-test.carry." + run + ".first";
        String second = "support-test.carry." + run + ".second";
        createTopics(first, second);
        // first: partition 0 holds a0..a9, partition 1 b0..b3; second: c0..c4 in partition 0
        produce(first, 0, "a", 10);
        produce(first, 1, "b", 4);
        produce(second, 0, "c", 5);
        String group = "support-test.group." + run;
        // The previous groups: "<group>.first" read partition 0 of first up to a5 (next offset 6) and all of partition
        // 1; "<group>.second" read c0 and c1.
        commit(group + ".first", Map.of(new TopicPartition(first, 0), 6L, new TopicPartition(first, 1), 4L));
        commit(group + ".second", Map.of(new TopicPartition(second, 0), 2L));

        List<String> read = consume(group, List.of(first, second), 7);

        assertEquals(List.of("a6", "a7", "a8", "a9", "c2", "c3", "c4"), read.stream().sorted().toList(),
                "read from where the previous groups stopped, nothing before");
        assertEquals(Map.of(new TopicPartition(first, 0), 6L, new TopicPartition(first, 1), 4L,
                new TopicPartition(second, 0), 2L), committed(group),
                "the carried offsets are the new group's own (the test's consumer commits nothing itself)");
    }

    @Test
    void keepsTheGroupsOwnOffsetsAndStartsAtTheBeginningWhereNobodyRead() throws Exception {
        String run = UUID.randomUUID().toString();
        String topic = "support-test.carry." + run + ".events";
        String unread = "support-test.carry." + run + ".unread";
        createTopics(topic, unread);
        produce(topic, 0, "a", 6);
        produce(topic, 1, "b", 3);
        produce(unread, 0, "u", 2);
        String group = "support-test.group." + run;
        // The group read partition 0 itself up to a3; its previous group had read less there, and all of partition 1.
        commit(group, Map.of(new TopicPartition(topic, 0), 4L));
        commit(group + ".events", Map.of(new TopicPartition(topic, 0), 1L, new TopicPartition(topic, 1), 3L));

        List<String> read = consume(group, List.of(topic, unread), 4);

        assertEquals(List.of("a4", "a5", "u0", "u1"), read.stream().sorted().toList(),
                "own offset kept on partition 0, previous group's on partition 1, earliest where nobody read");
    }

    /** Reads with a consumer of {@code group} and the carry-over until {@code expected} records came, then 1 s more. */
    private static List<String> consume(String group, List<String> topics, int expected) {
        Map<String, String> shortNames = new HashMap<>();
        topics.forEach(topic -> shortNames.put(topic, topic.substring(topic.lastIndexOf('.') + 1)));
        OffsetCarryOver carryOver = new OffsetCarryOver(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker()),
                OffsetCarryOver.suffixed(shortNames));
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<String> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(topics, new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    carryOver.onPartitionsAssigned(consumer, partitions);
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    carryOver.onPartitionsRevoked(consumer, partitions);
                }
            });
            Instant deadline = Instant.now().plusSeconds(30);
            while (Instant.now().isBefore(deadline) && read.size() < expected) {
                consumer.poll(Duration.ofMillis(300)).forEach(record -> read.add(record.value()));
            }
            consumer.poll(Duration.ofSeconds(1)).forEach(record -> read.add(record.value()));
        }
        return read;
    }

    private static void createTopics(String... topics) throws Exception {
        try (Admin admin = admin()) {
            List<NewTopic> created = new ArrayList<>();
            for (String topic : topics) {
                created.add(new NewTopic(topic, 2, (short) 1));
            }
            admin.createTopics(created).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static void produce(String topic, int partition, String prefix, int count) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, null, prefix + i)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void commit(String group, Map<TopicPartition, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        offsets.forEach((partition, offset) -> committed.put(partition, new OffsetAndMetadata(offset)));
        try (Admin admin = admin()) {
            admin.alterConsumerGroupOffsets(group, committed).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static Map<TopicPartition, Long> committed(String group) throws Exception {
        try (Admin admin = admin()) {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
                    .forEach((partition, offset) -> offsets.put(partition, offset.offset()));
            return offsets;
        }
    }

    /** The test broker, read when a test runs (the test profile's configuration). */
    private static String broker() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker()));
    }
}
