package dev.cryptopay.reporting.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.projection.ProjectionWriter;
import dev.cryptopay.support.inbox.BatchRetry;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The projection's Kafka side: each topic is read in batches (one poll's records, CloudEvent JSON strings) and a
 * batch is applied in one database transaction. Offsets are committed only after the batch committed; a batch that
 * cannot be stored (database down) is retried here ({@link BatchRetry}), holding the topic's partitions rather than
 * skipping events, until the service stops. Delivery is at least once; the store's inbox drops repeats.
 */
@ApplicationScoped
public class ProjectionConsumer {

    public static final String TRANSACTIONS = "transactions-in";
    public static final String REFUNDS = "refunds-in";
    public static final String MERCHANTS = "merchants-in";

    private final ProjectionWriter writer;
    private final BatchRetry retry = new BatchRetry();
    /** Applies the partitions of one poll side by side (the topics have 3 partitions; up to 4 at once). */
    private final ExecutorService pool = Executors.newFixedThreadPool(4, runnable -> {
        Thread thread = new Thread(runnable, "reporting-projection");
        thread.setDaemon(true);
        return thread;
    });

    public ProjectionConsumer(ProjectionWriter writer) {
        this.writer = writer;
    }

    @Incoming(TRANSACTIONS)
    @Blocking(ordered = true)
    public void transactions(ConsumerRecords<String, String> records) throws InterruptedException {
        byPartition(Topics.TRANSACTIONS, records);
    }

    @Incoming(REFUNDS)
    @Blocking(ordered = true)
    public void refunds(ConsumerRecords<String, String> records) throws InterruptedException {
        byPartition(Topics.REFUNDS, records);
    }

    @Incoming(MERCHANTS)
    @Blocking(ordered = true)
    public void merchants(List<String> values) throws InterruptedException {
        consume(Topics.MERCHANTS, values);
    }

    /**
     * A poll of up to this many records is applied in one database transaction, all its partitions together. Under
     * live traffic a poll holds a few records per partition, and a transaction per partition paid the store
     * pointer's lock, the read of the rows' versions, the statements and the commit three times over for them
     * (docs/performance.md, seventeenth step). Larger polls (a replay, a backlog) are applied partition by partition,
     * side by side, which is what makes a replay reach its rate (README, "Projection").
     */
    static final int ONE_TRANSACTION_UP_TO = 500;

    /**
     * A poll's records: up to {@link #ONE_TRANSACTION_UP_TO} in one database transaction; more, then one transaction
     * per partition, applied concurrently. Each partition's records stay in order either way, and the batch returns
     * (and its offsets can be committed) once all are stored. Partitions never share a transaction or refund (the
     * record key is its id), so their records never touch the same rows, together or side by side.
     */
    void byPartition(String topic, ConsumerRecords<String, String> records) throws InterruptedException {
        List<List<String>> parts = new ArrayList<>();
        for (TopicPartition partition : records.partitions()) {
            List<String> values = new ArrayList<>();
            for (ConsumerRecord<String, String> record : records.records(partition)) {
                if (record.value() != null) {
                    values.add(record.value());
                }
            }
            if (!values.isEmpty()) {
                parts.add(values);
            }
        }
        if (parts.isEmpty()) {
            return;
        }
        if (parts.size() == 1) {
            consume(topic, parts.get(0));
            return;
        }
        if (records.count() <= ONE_TRANSACTION_UP_TO) {
            consume(topic, parts.stream().flatMap(List::stream).toList());
            return;
        }
        List<Future<?>> running = new ArrayList<>();
        for (List<String> values : parts) {
            running.add(pool.submit(() -> {
                consume(topic, values);
                return null;
            }));
        }
        for (Future<?> future : running) {
            try {
                future.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("applying a partition's records failed", e.getCause());
            }
        }
    }

    void stop(@Observes ShutdownEvent event) {
        retry.stop();
        pool.shutdownNow();
    }

    private void consume(String topic, List<String> values) throws InterruptedException {
        retry.run(() -> "applying " + values.size() + " events of " + topic, () -> writer.write(topic, values));
    }
}
