package dev.cryptopay.gateway.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The X-Request-Id the gateway gives a request that brought none (docs/decisions.md: "else a new UUID"). */
class RequestIdTest {

    @Test
    void aNewIdIsARandomVersion4UuidInItsCanonicalForm() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = GatewayRouter.newRequestId();
            UUID uuid = UUID.fromString(id);
            assertEquals(uuid.toString(), id);
            assertEquals(4, uuid.version(), id);
            assertEquals(2, uuid.variant(), id);
            assertTrue(seen.add(id), "repeated: " + id);
        }
    }

    @Test
    void idsDrawnOnDifferentThreadsDiffer() throws Exception {
        Set<String> seen = Collections.synchronizedSet(new HashSet<>());
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    seen.add(GatewayRouter.newRequestId());
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(80_000, seen.size());
    }
}
