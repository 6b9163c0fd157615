package dev.cryptopay.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.CloudEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The relay's safety net backs off while the outbox is empty (docs/decisions.md §70) without delaying anything: an
 * event written through {@link Outbox} still leaves at once (the commit wakes the relay), and a row nobody woke the
 * relay for (as a crashed process leaves it) is still sent, within the longest idle delay.
 */
@QuarkusTest
@TestProfile(OutboxRelayIdleTest.ShortIdleDelay.class)
class OutboxRelayIdleTest {

    static final Duration MAX_IDLE = Duration.ofSeconds(4);

    public static class ShortIdleDelay implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cryptopay.outbox.max-idle-interval", MAX_IDLE.toSeconds() + "s");
        }
    }

    @Inject
    Outbox outbox;
    @Inject
    OutboxRelay relay;
    @Inject
    EntityManager em;
    @Inject
    DataSource dataSource;

    @Test
    void anIdleRelayBacksOffYetCommittedEventsLeaveAtOnceAndOrphanedRowsWithinTheLongestDelay() throws Exception {
        // The relay's first send to a new topic fetches its metadata (and may retry while the broker elects a
        // leader): done here, untimed, so that only the wake below is timed.
        String topic = RelayFixture.newTopic();
        List<String> warmUp = RelayFixture.append(outbox, topic, "test.idle-warm-up", 1);
        RelayFixture.awaitPublished(relay, em, warmUp, Duration.ofSeconds(30));

        // Idle: the delay between safety-net runs grows from the interval (1 s) to the maximum.
        awaitIdleDelay(MAX_IDLE, Duration.ofSeconds(30));

        // An event committed through the outbox wakes the relay: it does not wait for the backed-off safety net. The
        // run that set MAX_IDLE began just before awaitIdleDelay saw it (100 ms polls), and the safety net runs again
        // only once MAX_IDLE has passed since that run began: not before about 3.8 s after this commit. So 3 s still
        // fails when the wake is missing;
        // waiting up to MAX_IDLE + 3 s then reports how late the safety net sent them rather than a timeout.
        List<String> ids = RelayFixture.append(outbox, topic, "test.idle-wake", 3);
        Duration took = awaitPublishedWithoutWaking(ids, MAX_IDLE.plusSeconds(3));
        assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "published " + took + " after the commit");
        List<String> all = Stream.concat(warmUp.stream(), ids.stream()).toList();
        assertEquals(all, RelayFixture.read(topic, seen -> seen.size() >= all.size()).stream()
                .map(CloudEvent::id).toList());

        // A row written without the outbox's wake-up (a crash right after the commit): the safety net still sends it,
        // at the latest one maximum idle delay later.
        awaitIdleDelay(MAX_IDLE, Duration.ofSeconds(30));
        String orphan = UUID.randomUUID().toString();
        try (Connection connection = dataSource.getConnection(); PreparedStatement insert = connection.prepareStatement(
                "insert into outbox_event (id, topic, message_key, event_type, payload) values (?::uuid, ?, ?, ?, ?)")) {
            insert.setString(1, orphan);
            insert.setString(2, topic);
            insert.setString(3, "orphan");
            insert.setString(4, "test.orphan");
            insert.setString(5, "{}");
            insert.executeUpdate();
        }
        awaitPublishedWithoutWaking(List.of(orphan), MAX_IDLE.plusSeconds(3));
    }

    private void awaitIdleDelay(Duration expected, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (!relay.idleDelay().equals(expected)) {
            assertTrue(Instant.now().isBefore(deadline), "idle delay still " + relay.idleDelay() + " after " + timeout);
            Thread.sleep(100);
        }
    }

    /** Waits (without waking the relay) until none of {@code ids} waits in the outbox; answers how long it took. */
    private Duration awaitPublishedWithoutWaking(List<String> ids, Duration timeout) throws InterruptedException {
        Instant start = Instant.now();
        Instant deadline = start.plus(timeout);
        while (RelayFixture.waiting(em, ids) > 0) {
            assertTrue(Instant.now().isBefore(deadline), ids.size() + " events still wait after " + timeout);
            Thread.sleep(50);
        }
        return Duration.between(start, Instant.now());
    }
}
