package dev.cryptopay.transaction.address;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/**
 * Hands out child indexes of an extended public key. One atomic upsert per call: the row of the xpub is
 * locked until the calling transaction ends, so concurrent requests queue for the few milliseconds until their
 * commit; an index whose transaction rolled back was never shown to anyone and is handed out again.
 */
@ApplicationScoped
public class AddressAllocator {

    private final EntityManager em;

    public AddressAllocator(EntityManager em) {
        this.em = em;
    }

    /** The next unused index of {@code xpub}, starting at 0. */
    @Transactional(Transactional.TxType.MANDATORY)
    public long nextIndex(String xpub) {
        Number index = (Number) em.createNativeQuery("""
                insert into address_cursor (xpub, next_index) values (?1, 1)
                on conflict (xpub) do update set next_index = address_cursor.next_index + 1
                returning next_index - 1""")
                .setParameter(1, xpub)
                .getSingleResult();
        return index.longValue();
    }
}
