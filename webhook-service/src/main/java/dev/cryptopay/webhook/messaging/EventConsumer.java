package dev.cryptopay.webhook.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.support.inbox.BatchRetry;
import dev.cryptopay.webhook.delivery.DeliveryDispatcher;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Reads the payments topics in batches (values are CloudEvent JSON strings) and hands them to {@link EventIngest}.
 * Offsets are committed only after a batch's transaction committed; a batch that cannot be stored (database down)
 * is retried here ({@link BatchRetry}), holding up that topic's partitions rather than skipping events, until the
 * service stops. Events are delivered at least once: a crash or a stop before the offset commit re-reads them, and
 * the inbox drops the repeats.
 */
@ApplicationScoped
public class EventConsumer {

    /** {@value Topics#TRANSACTIONS}: data is the full Transaction, account in {@code data.accountID}. */
    public static final String TRANSACTIONS = "transactions-in";
    /** {@value Topics#REFUNDS}: no producer yet; account in {@code data.accountID} (or {@code accountId}). */
    public static final String REFUNDS = "refunds-in";
    /** {@value Topics#SUBSCRIPTIONS}: no producer yet; account in {@code data.accountId}. */
    public static final String SUBSCRIPTIONS = "subscriptions-in";

    private static final Logger LOG = Logger.getLogger(EventConsumer.class);

    private final EventIngest ingest;
    private final DeliveryDispatcher dispatcher;
    private final BatchRetry retry = new BatchRetry();

    public EventConsumer(EventIngest ingest, DeliveryDispatcher dispatcher) {
        this.ingest = ingest;
        this.dispatcher = dispatcher;
    }

    @Incoming(TRANSACTIONS)
    @Blocking(ordered = true)
    public void transactions(List<String> values) throws InterruptedException {
        consume(TRANSACTIONS, values);
    }

    @Incoming(REFUNDS)
    @Blocking(ordered = true)
    public void refunds(List<String> values) throws InterruptedException {
        consume(REFUNDS, values);
    }

    @Incoming(SUBSCRIPTIONS)
    @Blocking(ordered = true)
    public void subscriptions(List<String> values) throws InterruptedException {
        consume(SUBSCRIPTIONS, values);
    }

    void stop(@Observes ShutdownEvent event) {
        retry.stop();
    }

    private void consume(String channel, List<String> values) throws InterruptedException {
        retry.run(() -> "storing " + values.size() + " events from " + channel, () -> {
            long began = System.nanoTime();
            int created = ingest.ingest(values);
            if (created > 0) {
                dispatcher.wake();
            }
            if (LOG.isDebugEnabled()) {
                LOG.debugf("%s: %d events, %d deliveries in %d ms", channel, values.size(), created,
                        (System.nanoTime() - began) / 1_000_000);
            }
        });
    }
}
