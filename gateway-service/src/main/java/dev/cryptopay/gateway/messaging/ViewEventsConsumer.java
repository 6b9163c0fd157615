package dev.cryptopay.gateway.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.support.inbox.BatchRetry;
import dev.cryptopay.support.inbox.OffsetCarryOver;
import dev.cryptopay.support.lifecycle.Stopping;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Reads the two compacted topics the gateway keeps views of, keys and merchants, with one consumer (each consumer's
 * poll and heartbeat threads cost an idle service about 0.5% of a core, docs/decisions.md §102), and hands each
 * record to the view it belongs to, in order, one database transaction each. A record that cannot be stored (the
 * database is down) is tried again until it is ({@link BatchRetry}), holding up the partition rather than failing the
 * channel, which left the views stale (a revoked key still accepted) until a restart; at a stop it is left for the next
 * start (docs/decisions.md §80, §115, §116).
 */
@ApplicationScoped
public class ViewEventsConsumer {

    /** The channel of both topics (group {@code gateway-views}). */
    public static final String CHANNEL = "views-in";
    /** The channel's rebalance listener: carries the offsets of the per-topic groups it replaced over. */
    public static final String CARRY_OVER = "gateway.carry-over";

    private final KeyEventsConsumer keys;
    private final MerchantEventsConsumer merchants;
    private final BatchRetry retry;

    public ViewEventsConsumer(KeyEventsConsumer keys, MerchantEventsConsumer merchants, Stopping stopping) {
        this.keys = keys;
        this.merchants = merchants;
        this.retry = new BatchRetry(stopping);
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    public CompletionStage<Void> onEvent(Message<ConsumerRecord<String, String>> message) {
        ConsumerRecord<String, String> record = message.getPayload();
        Consumer<String> view = switch (record.topic()) {
            case Topics.KEYS -> keys::onKeyEvent;
            case Topics.MERCHANTS -> merchants::onMerchantEvent;
            default -> throw new IllegalStateException("not a topic of " + CHANNEL + ": " + record.topic());
        };
        return retry.settle(message, () -> "applying an event of " + record.topic(), () -> view.accept(record.value()));
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
