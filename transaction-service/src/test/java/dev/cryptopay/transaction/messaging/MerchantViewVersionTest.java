package dev.cryptopay.transaction.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.transaction.service.MerchantAccess;
import dev.cryptopay.transaction.service.TestConfigurations;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

/**
 * The merchant view's version (docs/decisions.md §106), which lets MerchantAccess keep merchants in memory while the
 * view stays as it is: it moves with the commit of a change to the view, never before it, and a write that changes
 * nothing leaves it where it is.
 */
@QuarkusTest
class MerchantViewVersionTest {

    @Inject
    MerchantAccess access;

    @Inject
    EntityManager em;

    @Test
    void theVersionMovesAtTheCommitOfAChangeToTheView() {
        MerchantConfiguration config = TestConfigurations.merchant(c -> c.version(5));
        long before = version();
        long inside = QuarkusTransaction.requiringNew().call(() -> {
            assertTrue(access.store(config));
            em.flush();
            return read(); // in the changing transaction: its own uncommitted writes would show here
        });
        assertEquals(before, inside, "the version moved before the change committed");
        long after = version();
        assertTrue(after > before, "the committed change left the version where it was");

        QuarkusTransaction.requiringNew().run(() -> access.store(config)); // the same version again: nothing stored
        assertEquals(after, version(), "a write that changed no row moved the version");
    }

    private long version() {
        return QuarkusTransaction.requiringNew().call(this::read);
    }

    private long read() {
        return ((Number) em.createNativeQuery("select version from merchant_view_version where id = 1")
                .getSingleResult()).longValue();
    }
}
