package dev.cryptopay.support.outbox;

import dev.cryptopay.support.lifecycle.Stopping;
import dev.cryptopay.support.logging.KafkaConnectorLogFilter;
import dev.cryptopay.support.time.IdleBackoff;
import dev.cryptopay.support.time.PacedJob;
import io.quarkus.arc.Unremovable;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * milliseconds; the timed runs are the safety net for rows left by a crash, a broker outage or another replica. They
 * back off while they find nothing (docs/decisions.md §70): after {@code cryptopay.outbox.interval} (1 s), doubling up
 * to {@code cryptopay.outbox.max-idle-interval} (30 s) while every run finds the outbox empty, and back to the interval
 * after any run that sent something, failed, or found another replica's relay holding the lock. An idle service then
 * reads its outbox twice a minute instead of every second, and its relay thread sleeps in between ({@link PacedJob},
 * §105); an event written by this process never waits for it.
 *
 * <p>Under load the relay lingers (docs/decisions.md §85): a wake-up that follows a run which sent something
 * waits {@code cryptopay.outbox.linger} (5 ms) before reading the outbox, so the events of the creations committed
 * meanwhile leave in one batch, one transaction and one marking statement instead of one each. An event after a quiet
 * spell (the previous run found nothing) leaves at once.
 *
 * <p>An outage is reported by the relay, not record by record (docs/decisions.md §127): a WARN at the first failed run,
 * then one line a minute while the runs keep failing (a WARN, an ERROR once the outage has lasted
 * {@code cryptopay.outbox.error-after}, 5 minutes: webhooks and every service's view of this one are that late), and
 * an INFO when a run succeeds again, with how long the events waited. The connector's own ERRORs for each record of a
 * failed batch are turned into DEBUG by {@link KafkaConnectorLogFilter}.
 */
@ApplicationScoped
@Unremovable
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    /** Arbitrary constant naming the relay's advisory lock; every service uses its own database. */
    private static final long RELAY_LOCK = 0x0b0c_5eedL;
    /**
     * No run before the application has started: Reactive Messaging wires the channel during the start, which took
     * longer than a few seconds on a cold machine and logged "Unable to connect an emitter".
     */
    private static final Duration FIRST_RUN = Duration.ofSeconds(5);

    private final EntityManager em;
    private final MutinyEmitter<String> emitter;
    private final int batchSize;
    private final Duration ackTimeout;
    private final Duration linger;
    /** Whether the last run sent something: the next wake-up then lingers to gather a batch (§85). */
    private volatile boolean busy;
    /** The relay's thread and the pace of its safety net: doubles while runs find nothing to send (§70). */
    private final PacedJob job;
    /** How an outage is reported (§127); touched only on the relay's thread. */
    private final OutageReport outage;

    public OutboxRelay(EntityManager em, @Channel(Channels.OUTBOX) MutinyEmitter<String> emitter,
            @ConfigProperty(name = "cryptopay.outbox.batch-size", defaultValue = "200") int batchSize,
            @ConfigProperty(name = "cryptopay.outbox.ack-timeout", defaultValue = "15s") Duration ackTimeout,
            @ConfigProperty(name = "cryptopay.outbox.interval", defaultValue = "1s") Duration interval,
            @ConfigProperty(name = "cryptopay.outbox.max-idle-interval", defaultValue = "30s") Duration maxIdle,
            @ConfigProperty(name = "cryptopay.outbox.linger", defaultValue = "5ms") Duration linger,
            @ConfigProperty(name = "cryptopay.outbox.error-after", defaultValue = "5m") Duration errorAfter) {
        this.em = em;
        this.linger = linger;
        this.emitter = emitter;
        this.batchSize = batchSize;
        this.ackTimeout = ackTimeout;
        this.job = new PacedJob("outbox-relay", new IdleBackoff(interval, maxIdle), timed -> relayPending());
        this.outage = new OutageReport(LOG, errorAfter, Duration.ofMinutes(1));
    }

    /**
     * Runs the relay soon on its own thread; wake-ups that arrive before that run begins are merged. After a run that
     * sent something the run waits the linger first, still pending, so the wake-ups of the commits meanwhile merge
     * into it.
     */
    public void wake() {
        job.runSoon(busy ? linger : Duration.ZERO);
    }

    void start(@Observes StartupEvent event) {
        job.start(FIRST_RUN);
    }

    /** The current delay between safety-net runs (for tests and the performance notes). */
    Duration idleDelay() {
        return job.delay();
    }

    /** At shutdown the database goes away; rows not yet sent wait for the next start. */
    void stop(@Observes ShutdownEvent event) {
        job.stop();
    }

    /**
     * Sends every row waiting, batch by batch; answers whether the outbox was empty (nothing at all to send: the
     * safety net then waits twice as long next time). Rows sent, a failure or another relay holding the lock are not
     * idle: the next look comes after the interval.
     */
    boolean relayPending() {
        if (job.stopped()) {
            return false;
        }
        boolean idle = false;
        boolean sentAny = false;
        try {
            int sent;
            boolean first = true;
            do {
                sent = QuarkusTransaction.requiringNew().call(this::publishBatch);
                idle = first && sent == 0;
                sentAny |= sent > 0;
                first = false;
            } while (sent == batchSize);
            outage.succeeded(System.nanoTime());
        } catch (RuntimeException e) {
            if (job.stopped()) {
                Stopping.logPaused(LOG, true, "outbox relay paused, will retry: %s", e.getMessage());
            } else {
                outage.failed(System.nanoTime(), e.getMessage());
            }
        } finally {
            busy = sentAny;
        }
        return idle;
    }

    /**
     * Sends one batch and marks it published; returns how many rows were sent, or -1 when another relay holds the
     * lock (its rows, or ours committed after it read its batch, are looked at again after the interval).
     */
    int publishBatch() {
        Boolean locked = (Boolean) em.createNativeQuery("select pg_try_advisory_xact_lock(?1)")
                .setParameter(1, RELAY_LOCK).getSingleResult();
        if (!Boolean.TRUE.equals(locked)) {
            return -1;
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
        // One statement marks the batch (not an update per row at the flush); by seq, the rows sent, never a range
        // (a row with a lower seq may commit after this batch was read).
        em.createQuery("update OutboxEvent e set e.publishedAt = ?1 where e.seq in ?2")
                .setParameter(1, OffsetDateTime.now())
                .setParameter(2, batch.stream().map(row -> row.seq).toList())
                .executeUpdate();
        // This commit need not wait for the WAL flush (docs/decisions.md §78): if the database lost it in a crash, the
        // rows would only be sent again, which consumers absorb by the event id. The events themselves were made
        // durable by the transactions that wrote them.
        em.createNativeQuery("set local synchronous_commit to off").executeUpdate();
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
        // What sendMessageAndForget does, less its WARN (SRMSG00234) for every message that fails: the relay reports
        // an outage once (§127). A failure that comes without a nack (the emitter refused the message) fails the
        // future too, rather than leaving it to the ack timeout.
        emitter.sendMessage(message).subscribe().with(sent -> {
        }, acked::completeExceptionally);
        return acked;
    }
}
