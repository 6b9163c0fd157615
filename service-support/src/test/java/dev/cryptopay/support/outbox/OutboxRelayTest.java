package dev.cryptopay.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.support.inbox.Inbox;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The outbox relay itself, on the real PostgreSQL and the real test broker: duplicate relays are harmless (each
 * event leaves once and is marked once), and a crash between sending and marking sends the events again, which
 * consumers absorb by deduplicating on the event id (service-support's Inbox).
 */
@QuarkusTest
class OutboxRelayTest {

    @Inject
    Outbox outbox;
    @Inject
    OutboxRelay relay;
    @Inject
    Inbox inbox;
    @Inject
    EntityManager em;
    @Inject
    DataSource dataSource;

    @Test
    void relaysRacingForTheSameRowsSendEachEventOnceAndMarkItOnce() throws Exception {
        String topic = RelayFixture.newTopic();
        List<String> ids = RelayFixture.append(outbox, topic, "test.race", 30);

        // Four relay runs at once (as four replicas of a service would run them), beside the relay's own wake-up.
        ExecutorService replicas = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                runs.add(replicas.submit(relay::relayPending));
            }
            for (Future<?> run : runs) {
                run.get();
            }
        } finally {
            replicas.shutdown();
        }
        RelayFixture.awaitPublished(relay, em, ids, Duration.ofSeconds(30));
        Map<String, String> marks = RelayFixture.marks(em, ids);

        List<CloudEvent> events = RelayFixture.read(topic, seen -> seen.size() >= ids.size());
        Map<String, Long> counts = RelayFixture.counts(events);
        assertEquals(new HashSet<>(ids), counts.keySet(), "no event lost");
        assertEquals(Map.of(), counts.entrySet().stream().filter(count -> count.getValue() != 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)), "each event on the topic once");
        assertEquals(ids, events.stream().map(CloudEvent::id).toList(), "in the order they were written");

        // Another relay run finds nothing to do: a published row is never sent or marked again.
        relay.relayPending();
        assertEquals(marks, RelayFixture.marks(em, ids), "each row marked once");
        assertEquals(ids.size(), RelayFixture.read(topic, seen -> seen.size() >= ids.size()).size());
    }

    @Test
    void aCrashBetweenSendingAndMarkingSendsAgainAndConsumersApplyEachEventOnce() throws Exception {
        String name = "crash_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String type = "test." + name;
        // The first relay transaction that marks these events fails after the broker acknowledged them, exactly as
        // a process that dies between sending and committing its marks (a sequence counts across rollbacks).
        execute("create sequence " + name,
                "create function " + name + "() returns trigger language plpgsql as $$ begin "
                        + "if new.event_type = '" + type + "' and old.published_at is null "
                        + "and new.published_at is not null then "
                        + "if nextval('" + name + "') = 1 then raise exception 'simulated crash between send and mark'; "
                        + "end if; end if; return new; end $$",
                "create trigger " + name + " before update on outbox_event for each row execute function " + name
                        + "()");
        try {
            String topic = RelayFixture.newTopic();
            List<String> ids = RelayFixture.append(outbox, topic, type, 5);
            RelayFixture.awaitPublished(relay, em, ids, Duration.ofSeconds(30));
            assertTrue(sequenceValue(name) >= 2, "the first marking failed, a later one succeeded");

            List<CloudEvent> events = RelayFixture.read(topic, seen -> seen.size() >= 2 * ids.size());
            Map<String, Long> counts = RelayFixture.counts(events);
            assertEquals(new HashSet<>(ids), counts.keySet(), "no event lost");
            counts.forEach((id, count) -> assertEquals(2L, count, id + ": sent, not marked, sent again"));

            // A consumer that applies each record through the inbox applies every event exactly once.
            String consumer = "outbox-relay-test-" + name;
            List<String> applied = new ArrayList<>();
            for (CloudEvent event : events) {
                if (QuarkusTransaction.requiringNew().call(() -> inbox.firstDelivery(consumer, event.id()))) {
                    applied.add(event.id());
                }
            }
            assertEquals(ids.size(), applied.size(), "each event applied once");
            assertEquals(new HashSet<>(ids), new HashSet<>(applied));
        } finally {
            execute("drop trigger " + name + " on outbox_event", "drop function " + name + "()",
                    "drop sequence " + name);
        }
    }

    private void execute(String... statements) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private long sequenceValue(String sequence) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select last_value from " + sequence)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
