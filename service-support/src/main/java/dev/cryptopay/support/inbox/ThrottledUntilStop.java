package dev.cryptopay.support.inbox;

import dev.cryptopay.support.lifecycle.Stopping;
import io.quarkus.arc.Unremovable;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaConnectorIncomingConfiguration;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.commit.ContextHolder;
import io.smallrye.reactive.messaging.kafka.commit.KafkaCommitHandler;
import io.vertx.mutiny.core.Context;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * SmallRye's throttled commit strategy (its default: offsets are committed up to the first record not yet
 * acknowledged), except that once the service is stopping a record read from the broker is no longer handed to the
 * consumer: it is held back, never acknowledged, so its offset is not committed and the next start reads it again
 * (docs/decisions.md §119). Every consumer of the suite uses it ({@value #STRATEGY}, the connector's default in
 * service-support's configuration).
 *
 * <p>Why: the throttled strategy asks the broker for a partition's committed offset the first time a record of that
 * partition reaches the consumer ({@code received}), and at the channel's close it forgets every partition before the
 * Kafka consumer is closed. A record read before the close but handed on after it (the client keeps a few polled
 * batches ready) then asked a closed consumer, which failed the channel: "This consumer has already been closed",
 * logged as an ERROR at a stop under a backlog. Holding records back from the stop's beginning also means the stop
 * starts no new batch: what is read after it is read again by the next start, which every consumer absorbs (idempotent
 * on the event id). A wrapper rather than a copy of SmallRye's class: its constructor is private, and everything but
 * {@link #received} is its own, except that it sees the Kafka consumer through {@link CommittedAtAssignment}: the
 * offsets it looks up at a partition's first record are read when the partition is assigned, so that lookup does not
 * wait behind a poll (docs/decisions.md §130).
 */
public final class ThrottledUntilStop extends ContextHolder implements KafkaCommitHandler {

    /** The commit strategy's name ({@code mp.messaging.incoming.<channel>.commit-strategy}). */
    public static final String STRATEGY = "throttled-until-stop";

    private static final Logger LOG = Logger.getLogger(ThrottledUntilStop.class);
    static final String HELD_AT_STOP = "%s: the service is stopping; records read from the broker and not yet handed"
            + " to the consumer are left uncommitted for the next start";
    static final String HELD_AT_CLOSE = "%s: the channel is closed; records read from the broker and not yet handed"
            + " to the consumer are left uncommitted for the partitions' next consumer";

    private final KafkaCommitHandler throttled;
    private final CommittedAtAssignment<?, ?> committed;
    private final Stopping stopping;
    private final String channel;
    private final AtomicBoolean holding = new AtomicBoolean();
    private volatile boolean terminated;

    ThrottledUntilStop(Vertx vertx, KafkaCommitHandler throttled, CommittedAtAssignment<?, ?> committed,
            Stopping stopping, String channel) {
        super(vertx, throttled instanceof ContextHolder holder ? holder.getTimeoutInMillis() : 60_000);
        this.throttled = throttled;
        this.committed = committed;
        this.stopping = stopping;
        this.channel = channel;
    }

    /** Creates the strategy for a channel: SmallRye's throttled strategy, wrapped. */
    @ApplicationScoped
    @Unremovable
    @Identifier(STRATEGY)
    public static class Factory implements KafkaCommitHandler.Factory {

        private final KafkaCommitHandler.Factory throttled;
        private final Stopping stopping;

        public Factory(@Identifier(Strategy.THROTTLED) KafkaCommitHandler.Factory throttled, Stopping stopping) {
            this.throttled = throttled;
            this.stopping = stopping;
        }

        /** The throttled strategy sees the consumer through {@link CommittedAtAssignment}. */
        @Override
        public KafkaCommitHandler create(KafkaConnectorIncomingConfiguration config, Vertx vertx,
                KafkaConsumer<?, ?> consumer, BiConsumer<Throwable, Boolean> reportFailure) {
            CommittedAtAssignment<?, ?> committed = new CommittedAtAssignment<>(consumer);
            return new ThrottledUntilStop(vertx, throttled.create(config, vertx, committed, reportFailure),
                    committed, stopping, config.getChannel());
        }
    }

    /** The record as the throttled strategy passes it on, or, once the service is stopping, never. */
    @Override
    public <K, V> Uni<IncomingKafkaRecord<K, V>> received(IncomingKafkaRecord<K, V> record) {
        boolean serviceStopping = stopping.now();
        if (serviceStopping || terminated) {
            if (holding.compareAndSet(false, true)) {
                // Once per channel: the first reason seen. A channel also closes on its own when it fails (its
                // failure strategy); its records then wait for the partitions' next consumer, not for a restart.
                LOG.infof(serviceStopping ? HELD_AT_STOP : HELD_AT_CLOSE, channel);
            }
            return Uni.createFrom().nothing();
        }
        return throttled.received(record);
    }

    @Override
    public void terminate(boolean graceful) {
        terminated = true;
        throttled.terminate(graceful);
    }

    @Override
    public <K, V> Multi<IncomingKafkaRecord<K, V>> decorateStream(Multi<IncomingKafkaRecord<K, V>> consumed) {
        return throttled.decorateStream(consumed);
    }

    /** On the polling thread: the partitions' committed offsets are read first (CommittedAtAssignment). */
    @Override
    public void partitionsAssigned(Collection<TopicPartition> partitions) {
        committed.assigned(partitions);
        throttled.partitionsAssigned(partitions);
    }

    @Override
    public void partitionsRevoked(Collection<TopicPartition> partitions) {
        throttled.partitionsRevoked(partitions);
        committed.revoked(partitions);
    }

    @Override
    public <K, V> Uni<Void> handle(IncomingKafkaRecord<K, V> record) {
        return throttled.handle(record);
    }

    /** The source hands its event-loop context to a strategy that holds one; the throttled strategy runs on it. */
    @Override
    public void capture(Context context) {
        super.capture(context);
        if (throttled instanceof ContextHolder holder) {
            holder.capture(context);
        }
    }

    @Override
    public void capture(io.vertx.core.Context context) {
        super.capture(context);
        if (throttled instanceof ContextHolder holder) {
            holder.capture(context);
        }
    }
}
