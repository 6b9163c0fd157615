package dev.cryptopay.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.CloudEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Under load the relay gathers the events of several commits into one batch (docs/decisions.md §85): after a run that
 * sent something, the next wake-up waits the linger (here 1 s, so the test does not depend on the machine's speed)
 * and the events committed meanwhile leave together, marked by one statement, in the order they were written.
 */
@QuarkusTest
@TestProfile(OutboxRelayLingerTest.LongLinger.class)
class OutboxRelayLingerTest {

    public static class LongLinger implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cryptopay.outbox.linger", "1s");
        }
    }

    @Inject
    Outbox outbox;
    @Inject
    OutboxRelay relay;
    @Inject
    EntityManager em;

    @Test
    void eventsCommittedWhileTheRelayLingersLeaveInOneBatchInOrder() throws Exception {
        String topic = RelayFixture.newTopic();
        // The relay's first send to a new topic fetches its metadata: done first, untimed.
        RelayFixture.awaitPublished(relay, em, RelayFixture.append(outbox, topic, "test.linger-warm-up", 1),
                Duration.ofSeconds(30));
        // One event, sent by the wake-up of its own commit: the relay is now busy.
        List<String> first = RelayFixture.append(outbox, topic, "test.linger-first", 1);
        awaitSent(first);

        // Eight commits one after another, each waking the relay: the first wake-up lingers, the others merge into it.
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.addAll(RelayFixture.append(outbox, topic, "test.linger", 1));
        }
        awaitSent(ids);
        assertEquals(1, new HashSet<>(RelayFixture.marks(em, ids).values()).size(),
                "one batch, one marking statement: " + RelayFixture.marks(em, ids));

        List<CloudEvent> events = RelayFixture.read(topic, seen -> seen.size() >= 10);
        List<String> lingered = events.stream().map(CloudEvent::id).filter(ids::contains).toList();
        assertEquals(ids, lingered, "each event once, in the order they were written");
    }

    /** Waits until the relay marked {@code ids} published, without waking it (a wake-up of its own would run it). */
    private void awaitSent(List<String> ids) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (RelayFixture.waiting(em, ids) > 0) {
            assertTrue(Instant.now().isBefore(deadline), "events still wait in the outbox after 30 s");
            Thread.sleep(20);
        }
    }
}
