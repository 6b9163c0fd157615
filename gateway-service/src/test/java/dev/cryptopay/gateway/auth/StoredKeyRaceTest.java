package dev.cryptopay.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.events.KeyState;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The keys consumer and the directory's synchronous lookup may write the same new key at the same moment. Both go
 * through {@link StoredKey#save}, whose upsert must absorb the other's row: a unique violation there stopped the keys
 * consumer for good (fail-stop) and left the gateway not ready, as one system-test run showed. Only the upsert's
 * arbiter (the key hash) may be unique, or a racing insert fails on the other index instead of updating.
 */
@QuarkusTest
class StoredKeyRaceTest {

    private static final int WRITERS = 6;
    private static final int ROUNDS = 40;

    @Test
    void writersRacingOnTheSameNewKeyAllSucceedAndLeaveOneRow() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                byte[] hash = new byte[32];
                new SecureRandom().nextBytes(hash);
                KeyState state = new KeyState(UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                        KeyState.TYPE_API, HexFormat.of().formatHex(hash), "admin", null, KeyState.ACTIVE, 1,
                        OffsetDateTime.now().toString());
                CyclicBarrier start = new CyclicBarrier(WRITERS);
                List<Future<Boolean>> writes = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    writes.add(pool.submit(() -> {
                        start.await();
                        return QuarkusTransaction.requiringNew().call(() -> StoredKey.save(state));
                    }));
                }
                int written = 0;
                for (Future<Boolean> write : writes) {
                    written += write.get() ? 1 : 0; // an exception here is the race this test is about
                }
                assertEquals(1, written, "exactly one writer inserts, the others find the row as new as theirs");
                long rows = QuarkusTransaction.requiringNew().call(() -> StoredKey.count("keyId", UUID.fromString(
                        state.keyId())));
                assertEquals(1, rows);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
