package dev.cryptopay.support.inbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/**
 * The idempotent-consumer guard: a consumer calls {@link #firstDelivery} in the transaction that applies an
 * event and applies it only when this returns true. The marker row commits (or rolls back) with the change,
 * so an event is applied exactly once however often Kafka delivers it.
 */
@ApplicationScoped
public class Inbox {

    private final EntityManager em;

    public Inbox(EntityManager em) {
        this.em = em;
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
