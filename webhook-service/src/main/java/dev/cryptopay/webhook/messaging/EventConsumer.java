package dev.cryptopay.webhook.messaging;

import dev.cryptopay.events.Topics;
import dev.cryptopay.webhook.delivery.DeliveryDispatcher;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Reads the payments topics in batches (values are CloudEvent JSON strings) and hands them to {@link EventIngest}.
 * Offsets are committed only after a batch's transaction committed; a batch that cannot be stored (database down)
 * is retried here, holding up that topic's partitions rather than skipping events. Events are delivered
 * at least once: a crash before the offset commit re-reads them, and the inbox drops the repeats.
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

    private void consume(String channel, List<String> values) throws InterruptedException {
        long backoff = 250;
        while (true) {
            try {
                long began = System.nanoTime();
                int created = ingest.ingest(values);
                if (created > 0) {
                    dispatcher.wake();
                }
                if (LOG.isDebugEnabled()) {
                    LOG.debugf("%s: %d events, %d deliveries in %d ms", channel, values.size(), created,
                            (System.nanoTime() - began) / 1_000_000);
                }
                return;
            } catch (Exception e) {
                LOG.warnf("storing %d events from %s failed, retrying in %d ms: %s", values.size(), channel, backoff,
                        e.getMessage());
                Thread.sleep(backoff);
                backoff = Math.min(5000, backoff * 2);
            }
        }
    }
}
