package dev.cryptopay.reporting.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.projection.ProjectionWriter;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * The projection's Kafka side: each topic is read in batches (one poll's records, CloudEvent JSON strings) and a
 * batch is applied in one database transaction. Offsets are committed only after the batch committed; a batch that
 * cannot be stored (database down) is retried here, holding the topic's partitions rather than skipping events.
 * Delivery is at least once; the store's inbox drops repeats.
 */
@ApplicationScoped
public class ProjectionConsumer {

    public static final String TRANSACTIONS = "transactions-in";
    public static final String REFUNDS = "refunds-in";
    public static final String MERCHANTS = "merchants-in";

    private static final Logger LOG = Logger.getLogger(ProjectionConsumer.class);

    private final ProjectionWriter writer;

    public ProjectionConsumer(ProjectionWriter writer) {
        this.writer = writer;
    }

    @Incoming(TRANSACTIONS)
    @Blocking(ordered = true)
    public void transactions(List<String> values) throws InterruptedException {
        consume(Topics.TRANSACTIONS, values);
    }

    @Incoming(REFUNDS)
    @Blocking(ordered = true)
    public void refunds(List<String> values) throws InterruptedException {
        consume(Topics.REFUNDS, values);
    }

    @Incoming(MERCHANTS)
    @Blocking(ordered = true)
    public void merchants(List<String> values) throws InterruptedException {
        consume(Topics.MERCHANTS, values);
    }

    private void consume(String topic, List<String> values) throws InterruptedException {
        long backoff = 250;
        while (true) {
            try {
                writer.write(topic, values);
                return;
            } catch (Exception e) {
                LOG.warnf("applying %d events of %s failed, retrying in %d ms: %s", values.size(), topic, backoff,
                        e.getMessage());
                Thread.sleep(backoff);
                backoff = Math.min(5000, backoff * 2);
            }
        }
    }
}
