package dev.cryptopay.support.inbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.CloudEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.hibernate.Session;
import org.jboss.logging.Logger;

/**
 * The idempotent-consumer guard: a consumer calls {@link #firstDelivery} in the transaction that applies an
 * event and applies it only when this returns true. The marker row commits (or rolls back) with the change,
 * so an event is applied exactly once however often Kafka delivers it. A consumer that takes records in batches
 * uses {@link #firstDeliveries}: the same guard for a whole batch in one statement.
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

    /**
     * The batch form of {@link #firstDelivery}: marks every id of {@code eventIds} as seen by {@code consumer} in one
     * statement and answers the ids it had not seen before (duplicates within the batch count once). One database
     * round trip per batch instead of one per event, which is what a high-rate consumer needs (webhook-service's
     * ingest: 3-6 ms per round trip capped it near 200 events/s). The markers commit or roll back with the caller's
     * transaction, exactly as {@link #firstDelivery}'s do.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Set<String> firstDeliveries(String consumer, Collection<String> eventIds) {
        Set<String> fresh = new HashSet<>();
        if (eventIds.isEmpty()) {
            return fresh;
        }
        // Sorted: consumers racing for overlapping batches then take the key locks in the same order and cannot
        // deadlock on each other's speculative inserts.
        String[] ids = eventIds.stream().distinct().sorted().toArray(String[]::new);
        // Plain JDBC on the transaction's own connection: a varchar[] parameter binds the same on every driver
        // version, which a native query's parameter binding does not promise.
        em.unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement st = connection.prepareStatement("insert into processed_event (consumer, event_id) "
                    + "select ?, unnest(?::varchar[]) on conflict do nothing returning event_id")) {
                st.setString(1, consumer);
                st.setArray(2, connection.createArrayOf("varchar", ids));
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        fresh.add(rs.getString(1));
                    }
                }
            }
        });
        return fresh;
    }
}
