package dev.cryptopay.support.outbox;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

/**
 * Publishes committed outbox rows to Kafka in {@code seq} order and marks them published once the broker
 * acknowledged them (acks=all). While the broker is down the rows simply wait: a broker outage delays
 * events, it never loses one. A row can be sent twice (broker acked, marking failed), which consumers
 * absorb by deduplicating on the event id.
 *
 * <p>Only one relay publishes at a time per database (a transaction-scoped advisory lock), so replicas of a
 * service never reorder one aggregate's events.
 *
 * <p>{@link Outbox} wakes the relay as soon as a transaction that wrote events commits, so events leave within
 * milliseconds; the schedule (at least every second: Quarkus' scheduler runs nothing more often) is the safety
 * net for rows left by a crash, a broker outage or another replica.
 */
@ApplicationScoped
@Unremovable
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    /** Arbitrary constant naming the relay's advisory lock; every service uses its own database. */
    private static final long RELAY_LOCK = 0x0b0c_5eedL;

    private final EntityManager em;
    private final MutinyEmitter<String> emitter;
    private final int batchSize;
    private final Duration ackTimeout;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "outbox-relay");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicBoolean wakeUpPending = new AtomicBoolean();
    private volatile boolean stopped;

    public OutboxRelay(EntityManager em, @Channel(Channels.OUTBOX) MutinyEmitter<String> emitter,
            @ConfigProperty(name = "cryptopay.outbox.batch-size", defaultValue = "200") int batchSize,
            @ConfigProperty(name = "cryptopay.outbox.ack-timeout", defaultValue = "15s") Duration ackTimeout) {
        this.em = em;
        this.emitter = emitter;
        this.batchSize = batchSize;
        this.ackTimeout = ackTimeout;
    }

    /** Runs the relay soon on its own thread; wake-ups that arrive while one is pending are merged. */
    public void wake() {
        if (!stopped && wakeUpPending.compareAndSet(false, true)) {
            worker.execute(() -> {
                wakeUpPending.set(false);
                relayPending();
            });
        }
    }

    // The first run waits until Reactive Messaging has wired the channel at start-up.
    @Scheduled(every = "${cryptopay.outbox.interval:1s}", delayed = "5s")
    void safetyNet() {
        wake();
    }

    /** At shutdown the database goes away; rows not yet sent wait for the next start. */
    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        worker.shutdown();
    }

    void relayPending() {
        if (stopped) {
            return;
        }
        try {
            int sent;
            do {
                sent = QuarkusTransaction.requiringNew().call(this::publishBatch);
            } while (sent == batchSize);
        } catch (RuntimeException e) {
            LOG.warnf("outbox relay paused, will retry: %s", e.getMessage());
        }
    }

    /** Sends one batch and marks it published; returns how many rows were sent. */
    int publishBatch() {
        Boolean locked = (Boolean) em.createNativeQuery("select pg_try_advisory_xact_lock(?1)")
                .setParameter(1, RELAY_LOCK).getSingleResult();
        if (!Boolean.TRUE.equals(locked)) {
            return 0;
        }
        List<OutboxEvent> batch = em
                .createQuery("from OutboxEvent e where e.publishedAt is null order by e.seq", OutboxEvent.class)
                .setMaxResults(batchSize)
                .getResultList();
        if (batch.isEmpty()) {
            return 0;
        }
        List<CompletableFuture<Void>> acks = batch.stream().map(this::send).toList();
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
                    .get(ackTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the broker did not acknowledge the batch: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        }
        OffsetDateTime now = OffsetDateTime.now();
        batch.forEach(row -> row.publishedAt = now);
        return batch.size();
    }

    /**
     * Sends one row; the future completes when the broker acknowledged it. The ack and nack callbacks complete a
     * plain future rather than a Mutiny Uni, so the relay's database transaction is never propagated into the
     * producer's threads (which made commits fail and batches go out twice).
     */
    private CompletableFuture<Void> send(OutboxEvent row) {
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withTopic(row.topic)
                .withKey(row.messageKey)
                .build();
        CompletableFuture<Void> acked = new CompletableFuture<>();
        Message<String> message = Message.of(row.payload, Metadata.of(metadata), () -> {
            acked.complete(null);
            return CompletableFuture.completedFuture(null);
        }, failure -> {
            acked.completeExceptionally(failure);
            return CompletableFuture.completedFuture(null);
        });
        emitter.sendMessageAndForget(message);
        return acked;
    }
}
