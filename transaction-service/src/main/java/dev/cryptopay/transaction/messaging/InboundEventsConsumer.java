package dev.cryptopay.transaction.messaging;

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
 * Reads what transaction-service consumes, merchant-service's compacted merchants topic (the merchant view) and
 * subscription-service's billing requests, with one consumer (each consumer's poll and heartbeat threads cost an idle
 * service about 0.5% of a core, docs/decisions.md §102), and hands each record, in order, to
 * {@link MerchantViewConsumer} or {@link BillingRequestConsumer}. A record that cannot be stored (the database is down)
 * is tried again until it is ({@link BatchRetry}), holding up the partition rather than failing the channel until a
 * restart; at a stop it is left for the next start (docs/decisions.md §80, §115, §116).
 */
@ApplicationScoped
public class InboundEventsConsumer {

    /** The channel of both topics (group {@code transaction-service}). */
    public static final String CHANNEL = "events-in";
    /** The channel's rebalance listener: carries the offsets of the per-topic groups it replaced over. */
    public static final String CARRY_OVER = "transaction-service.carry-over";

    private final MerchantViewConsumer merchants;
    private final BillingRequestConsumer billing;
    private final BatchRetry retry;

    public InboundEventsConsumer(MerchantViewConsumer merchants, BillingRequestConsumer billing, Stopping stopping) {
        this.merchants = merchants;
        this.billing = billing;
        this.retry = new BatchRetry(stopping);
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    public CompletionStage<Void> onEvent(Message<ConsumerRecord<String, String>> message) {
        ConsumerRecord<String, String> record = message.getPayload();
        Consumer<String> consumer = switch (record.topic()) {
            case Topics.MERCHANTS -> merchants::onMerchantEvent;
            case Topics.BILLING -> billing::onBillingEvent;
            default -> throw new IllegalStateException("not a topic of " + CHANNEL + ": " + record.topic());
        };
        return retry.settle(message, () -> "applying an event of " + record.topic(),
                () -> consumer.accept(record.value()));
    }

    /** Until this consumer, each topic had a group of its own. */
    @Produces
    @Singleton
    @Identifier(CARRY_OVER)
    KafkaConsumerRebalanceListener carryOver(@Identifier("default-kafka-broker") Map<String, Object> broker) {
        return new OffsetCarryOver(broker, OffsetCarryOver.named(Map.of(Topics.MERCHANTS, "transaction-merchant-view",
                Topics.BILLING, "transaction-billing")));
    }
}
