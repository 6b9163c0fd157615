package dev.cryptopay.systemtests.payments;

import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.Suite;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads one aggregate's events (a transaction's, a refund's) from the event stream as a reporting consumer would. */
final class TransactionEventLog {

    private TransactionEventLog() {
    }

    /** The event types of {@code transactionId}, in order, once {@code until} holds (or after 20 s). */
    static List<String> types(String transactionId, Predicate<List<String>> until) {
        return events(Topics.TRANSACTIONS, transactionId, events -> until.test(types(events))).stream()
                .map(CloudEvent::type).toList();
    }

    static List<String> types(List<CloudEvent> events) {
        return events.stream().map(CloudEvent::type).toList();
    }

    /** The events keyed {@code key} on {@code topic}, in order, once {@code until} holds (or after 20 s). */
    static List<CloudEvent> events(String topic, String key, Predicate<List<CloudEvent>> until) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "it-payments-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<CloudEvent> events = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Instant deadline = Instant.now().plusSeconds(20);
            while (Instant.now().isBefore(deadline) && !until.test(events)) {
                for (var record : consumer.poll(Duration.ofMillis(300))) {
                    if (key.equals(record.key())) {
                        events.add(CloudEvent.parse(record.value()));
                    }
                }
            }
            // a little longer: anything published twice would show up now
            for (var record : consumer.poll(Duration.ofSeconds(1))) {
                if (key.equals(record.key())) {
                    events.add(CloudEvent.parse(record.value()));
                }
            }
        }
        return events;
    }
}
