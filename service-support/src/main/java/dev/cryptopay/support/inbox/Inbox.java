package dev.cryptopay.support.inbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.CloudEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The idempotent-consumer guard: a consumer calls {@link #firstDelivery} in the transaction that applies an
 * event and applies it only when this returns true. The marker row commits (or rolls back) with the change,
 * so an event is applied exactly once however often Kafka delivers it.
 */
@ApplicationScoped
public class Inbox {

    private static final Logger LOG = Logger.getLogger(Inbox.class);

    private final EntityManager em;
    private final ObjectMapper mapper;

    public Inbox(EntityManager em, ObjectMapper mapper) {
        this.em = em;
        this.mapper = mapper;
    }

    /**
     * The usual start of a consumer: decodes a record value as a CloudEvent of {@code type} with data of
     * {@code dataType}, and answers it only the first time {@code consumer} sees its id. Records of other types
     * are skipped, and so are malformed ones (logged: retrying them would never succeed).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public <T> Optional<T> accept(String consumer, String value, String type, Class<T> dataType) {
        CloudEvent event;
        T data;
        try {
            event = CloudEvent.parse(value);
            if (!type.equals(event.type())) {
                return Optional.empty();
            }
            data = mapper.treeToValue(event.data(), dataType);
        } catch (IllegalArgumentException | JsonProcessingException e) {
            LOG.warnf("%s skips a record that is not a %s event: %s", consumer, type, e.getMessage());
            return Optional.empty();
        }
        return firstDelivery(consumer, event.id()) ? Optional.ofNullable(data) : Optional.empty();
    }

    /** True the first time {@code consumer} sees {@code eventId}; false for every redelivery. */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean firstDelivery(String consumer, String eventId) {
        int inserted = em.createNativeQuery(
                "insert into processed_event (consumer, event_id) values (?1, ?2) on conflict do nothing")
                .setParameter(1, consumer)
                .setParameter(2, eventId)
                .executeUpdate();
        return inserted == 1;
    }
}
