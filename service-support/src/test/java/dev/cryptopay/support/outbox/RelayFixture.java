package dev.cryptopay.support.outbox;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.CloudEvent;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * What the outbox relay tests share: a fresh topic per test on the test broker (which creates no topic by itself),
 * events appended through {@link Outbox} exactly as a service does, the rows' state in the database, and the
 * topic read back as a consumer reads it.
 */
final class RelayFixture {

    private RelayFixture() {
    }

    /** The test broker, straight (never through a broker address a test profile redirects). */
    static String broker() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }

    /** A new one-partition topic, so the records of a test keep the relay's order. */
    static String newTopic() throws Exception {
        String topic = "support-test.outbox." + UUID.randomUUID();
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker());
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        return topic;
    }

    /** Appends {@code count} events of {@code type} to {@code topic} in one committed transaction; their ids. */
    static List<String> append(Outbox outbox, String topic, String type, int count) {
        return QuarkusTransaction.requiringNew().call(() -> {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ids.add(outbox.append(topic, type, "aggregate-" + i, Map.of("n", i)).id());
            }
            return ids;
        });
    }

    /** How many of {@code ids} are still waiting in the outbox (not marked published). */
    static long waiting(EntityManager em, List<String> ids) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select count(*) from outbox_event where published_at is null and id in (:ids)")
                .setParameter("ids", ids.stream().map(UUID::fromString).toList())
                .getSingleResult()).longValue());
    }

    /** The {@code published_at} of each of {@code ids}, as text (null while waiting). */
    static Map<String, String> marks(EntityManager em, List<String> ids) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Map<String, String> marks = new HashMap<>();
            for (Object row : em.createNativeQuery(
                    "select id::text, published_at::text from outbox_event where id in (:ids)")
                    .setParameter("ids", ids.stream().map(UUID::fromString).toList()).getResultList()) {
                Object[] columns = (Object[]) row;
                marks.put((String) columns[0], (String) columns[1]);
            }
            return marks;
        });
    }

    /**
     * Waits until none of {@code ids} waits in the outbox, waking the relay meanwhile (however it wakes by itself:
     * the test asks for the outcome, not for a timing).
     */
    static void awaitPublished(OutboxRelay relay, EntityManager em, List<String> ids, Duration timeout)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (waiting(em, ids) > 0) {
            assertTrue(Instant.now().isBefore(deadline),
                    waiting(em, ids) + " of " + ids.size() + " events still wait in the outbox after " + timeout);
            relay.wake();
            Thread.sleep(200);
        }
    }

    /**
     * The CloudEvents on {@code topic} from its beginning, read until {@code until} holds (at most 30 s), then one
     * second more, so a record sent more often than expected shows up too.
     */
    static List<CloudEvent> read(String topic, Predicate<List<CloudEvent>> until) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "support-test-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<CloudEvent> events = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Instant deadline = Instant.now().plusSeconds(30);
            while (Instant.now().isBefore(deadline) && !until.test(events)) {
                consumer.poll(Duration.ofMillis(300)).forEach(record -> events.add(CloudEvent.parse(record.value())));
            }
            consumer.poll(Duration.ofSeconds(1)).forEach(record -> events.add(CloudEvent.parse(record.value())));
        }
        return events;
    }

    /** How often each event id occurs. */
    static Map<String, Long> counts(List<CloudEvent> events) {
        Map<String, Long> counts = new HashMap<>();
        events.forEach(event -> counts.merge(event.id(), 1L, Long::sum));
        return counts;
    }
}
