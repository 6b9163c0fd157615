package dev.cryptopay.support.outbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.support.jdbc.AfterCommit;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Writes events into the outbox table inside the caller's transaction, so an event exists exactly when the
 * state change it describes committed. {@link OutboxRelay} publishes it to Kafka afterwards.
 */
@ApplicationScoped
@Unremovable
public class Outbox {

    private static final Object WAKE_REGISTERED = new Object();

    private final EntityManager em;
    private final ObjectMapper mapper;
    private final TransactionSynchronizationRegistry transactions;
    private final OutboxRelay relay;
    private final String source;

    public Outbox(EntityManager em, ObjectMapper mapper, TransactionSynchronizationRegistry transactions,
            OutboxRelay relay, @ConfigProperty(name = "quarkus.application.name") String app) {
        this.em = em;
        this.mapper = mapper;
        this.transactions = transactions;
        this.relay = relay;
        this.source = "/" + app;
    }

    /**
     * Appends a CloudEvent for {@code topic}; {@code subject} is the aggregate id and the Kafka key.
     * Must run in the transaction that makes the change.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public CloudEvent append(String topic, String type, String subject, Object data) {
        JsonNode json = mapper.valueToTree(data);
        CloudEvent event = CloudEvent.of(source, type, subject, json);
        OutboxEvent row = new OutboxEvent();
        row.id = UUID.fromString(event.id());
        row.topic = topic;
        row.messageKey = subject;
        row.eventType = type;
        row.payload = event.toJson();
        em.persist(row);
        wakeRelayAfterCommit();
        return event;
    }

    private void wakeRelayAfterCommit() {
        AfterCommit.run(transactions, WAKE_REGISTERED, relay::wake);
    }
}
