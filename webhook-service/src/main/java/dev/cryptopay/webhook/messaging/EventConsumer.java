package dev.cryptopay.webhook.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.support.inbox.BatchRetry;
import dev.cryptopay.support.inbox.OffsetCarryOver;
import dev.cryptopay.support.lifecycle.Stopping;
import dev.cryptopay.webhook.delivery.DeliveryDispatcher;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Reads the payments topics in batches with one consumer (values are CloudEvent JSON strings) and hands them to
 * {@link EventIngest}; the events themselves say what they are and whose ({@value Topics#TRANSACTIONS}: data is the
 * full Transaction, account in {@code data.accountID}; {@value Topics#REFUNDS}: {@code data.accountID} or
 * {@code accountId}; {@value Topics#SUBSCRIPTIONS}: {@code data.accountId}). Offsets are committed only after a
 * batch's transaction committed; a batch that cannot be stored (database down) is retried here ({@link BatchRetry}),
 * holding up the consumer's partitions rather than skipping events, until the service stops; a batch in hand at the
 * stop is left unacknowledged for the next start ({@link BatchRetry#settle}). Events are delivered at least once: a
 * crash or a stop before the offset commit re-reads them, and the inbox drops the repeats.
 */
@ApplicationScoped
public class EventConsumer {

    /** The channel of the three topics (one consumer, group {@code webhook-service}). */
    public static final String EVENTS = "events-in";
    /** The channel's rebalance listener: carries the offsets of the per-topic groups it replaced over. */
    public static final String CARRY_OVER = "webhook-service.carry-over";

    private static final Logger LOG = Logger.getLogger(EventConsumer.class);

    private final EventIngest ingest;
    private final DeliveryDispatcher dispatcher;
    private final BatchRetry retry;

    public EventConsumer(EventIngest ingest, DeliveryDispatcher dispatcher, Stopping stopping) {
        this.ingest = ingest;
        this.dispatcher = dispatcher;
        this.retry = new BatchRetry(stopping);
    }

    @Incoming(EVENTS)
    @Blocking(ordered = true)
    public CompletionStage<Void> events(Message<List<String>> batch) {
        List<String> values = batch.getPayload();
        return retry.settle(batch, () -> "storing " + values.size() + " events", () -> {
            long began = System.nanoTime();
            int created = ingest.ingest(values);
            if (created > 0) {
                dispatcher.wake();
            }
            if (LOG.isDebugEnabled()) {
                LOG.debugf("%d events, %d deliveries in %d ms", values.size(), created,
                        (System.nanoTime() - began) / 1_000_000);
            }
        });
    }

    /** Until this consumer, each topic had a group of its own: {@code <group>.transactions} and so on. */
    @Produces
    @Singleton
    @Identifier(CARRY_OVER)
    KafkaConsumerRebalanceListener carryOver(@Identifier("default-kafka-broker") Map<String, Object> broker) {
        return new OffsetCarryOver(broker, OffsetCarryOver.suffixed(Map.of(Topics.TRANSACTIONS, "transactions",
                Topics.REFUNDS, "refunds", Topics.SUBSCRIPTIONS, "subscriptions")));
    }
}
