package dev.cryptopay.gateway.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.support.inbox.OffsetCarryOver;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Reads the two compacted topics the gateway keeps views of, keys and merchants, with one consumer (each consumer's
 * poll and heartbeat threads cost an idle service about 0.5% of a core, docs/decisions.md §102), and hands each
 * record to the view it belongs to, in order, one database transaction each.
 */
@ApplicationScoped
public class ViewEventsConsumer {

    /** The channel of both topics (group {@code gateway-views}). */
    public static final String CHANNEL = "views-in";
    /** The channel's rebalance listener: carries the offsets of the per-topic groups it replaced over. */
    public static final String CARRY_OVER = "gateway.carry-over";

    private final KeyEventsConsumer keys;
    private final MerchantEventsConsumer merchants;

    public ViewEventsConsumer(KeyEventsConsumer keys, MerchantEventsConsumer merchants) {
        this.keys = keys;
        this.merchants = merchants;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    public void onEvent(ConsumerRecord<String, String> record) {
        switch (record.topic()) {
            case Topics.KEYS -> keys.onKeyEvent(record.value());
            case Topics.MERCHANTS -> merchants.onMerchantEvent(record.value());
            default -> throw new IllegalStateException("not a topic of " + CHANNEL + ": " + record.topic());
        }
    }

    /** Until this consumer, each topic had a group of its own. */
    @Produces
    @Singleton
    @Identifier(CARRY_OVER)
    KafkaConsumerRebalanceListener carryOver(@Identifier("default-kafka-broker") Map<String, Object> broker) {
        return new OffsetCarryOver(broker, OffsetCarryOver.named(Map.of(Topics.KEYS, "gateway-key-store",
                Topics.MERCHANTS, "gateway-merchants")));
    }
}
