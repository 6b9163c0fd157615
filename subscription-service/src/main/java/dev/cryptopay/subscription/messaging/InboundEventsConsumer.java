package dev.cryptopay.subscription.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.subscription.messaging.TransactionEventConsumer.TransactionEvent;
import dev.cryptopay.support.inbox.BatchRetry;
import dev.cryptopay.support.inbox.OffsetCarryOver;
import dev.cryptopay.support.lifecycle.Stopping;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Reads the two topics subscription-service consumes with one consumer (each consumer's poll and heartbeat threads
 * cost an idle service about 0.5% of a core, docs/decisions.md §102), a poll at a time in one database transaction:
 * merchant-service's compacted merchants topic ({@link MerchantViewConsumer}) and {@code internal.billing.v1}, where
 * transaction-service answers this service's billing requests: the events of the billing transactions
 * ({@link TransactionEventConsumer}, the poll's in one lookup; transaction-service sends a billing transaction's
 * events there as well as to the public stream, so this service no longer reads every transaction of the platform,
 * docs/decisions.md §109) and its rejections ({@link BillingRejectionConsumer}). This service's own requests on that
 * topic are skipped by type. Each topic's records are applied in their order; the topics never depended on each
 * other's order. A poll that cannot be stored (the database is down) is tried again until it is ({@link BatchRetry}),
 * holding up the partitions rather than failing the channel until a restart; at a stop it is left for the next start
 * (docs/decisions.md §80, §115, §116).
 */
@ApplicationScoped
public class InboundEventsConsumer {

    /** The channel of the two topics (group {@code subscription-service}). */
    public static final String CHANNEL = "events-in";
    /** The channel's rebalance listener: carries the offsets of the per-topic groups it replaced over. */
    public static final String CARRY_OVER = "subscription-service.carry-over";

    private final MerchantViewConsumer merchants;
    private final TransactionEventConsumer transactions;
    private final BillingRejectionConsumer rejections;
    private final BatchRetry retry;

    public InboundEventsConsumer(MerchantViewConsumer merchants, TransactionEventConsumer transactions,
            BillingRejectionConsumer rejections, Stopping stopping) {
        this.merchants = merchants;
        this.transactions = transactions;
        this.rejections = rejections;
        this.retry = new BatchRetry(stopping);
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    public CompletionStage<Void> onEvents(Message<ConsumerRecords<String, String>> batch) {
        ConsumerRecords<String, String> records = batch.getPayload();
        return retry.settle(batch, () -> "applying " + records.count() + " events",
                () -> QuarkusTransaction.requiringNew().run(() -> apply(records)));
    }

    /** A poll's records, in one database transaction (the caller's). */
    private void apply(ConsumerRecords<String, String> records) {
        List<TransactionEvent> transactionEvents = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            if (record.value() == null) {
                continue; // a tombstone says nothing to this service
            }
            switch (record.topic()) {
                case Topics.MERCHANTS -> merchants.apply(record.value());
                case Topics.BILLING -> {
                    TransactionEvent event = TransactionEvent.parse(record.value());
                    if (event != null) {
                        transactionEvents.add(event);
                    } else {
                        rejections.apply(record.value());
                    }
                }
                default -> throw new IllegalStateException("not a topic of " + CHANNEL + ": " + record.topic());
            }
        }
        if (!transactionEvents.isEmpty()) {
            transactions.apply(transactionEvents);
        }
    }

    /**
     * Until this consumer, each topic had a group of its own (the tests' groups were named apart); the transactions
     * topic's is no longer read (docs/decisions.md §109).
     */
    @Produces
    @Singleton
    @Identifier(CARRY_OVER)
    KafkaConsumerRebalanceListener carryOver(@Identifier("default-kafka-broker") Map<String, Object> broker) {
        return new OffsetCarryOver(broker, group -> {
            String prefix = group.endsWith("-test") ? "subscription-test-" : "subscription-";
            return Map.of(Topics.MERCHANTS, prefix + "merchant-view", Topics.BILLING, prefix + "billing");
        });
    }
}
