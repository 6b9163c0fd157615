package dev.cryptopay.support.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionalException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The inbox guard itself, on the real database: each event id is "first" once per consumer, whether asked one by one
 * ({@code firstDelivery}) or a batch at a time ({@code firstDeliveries}), the markers roll back with the caller's
 * transaction, and consumers racing for the same batch share it out without overlap.
 */
@QuarkusTest
class InboxTest {

    @Inject
    Inbox inbox;

    private static String consumer() {
        return "inbox-test." + UUID.randomUUID();
    }

    private static List<String> ids(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(UUID.randomUUID().toString());
        }
        return ids;
    }

    @Test
    void aBatchAnswersTheIdsNotSeenBeforeAndEachOnlyOnce() {
        String consumer = consumer();
        List<String> first = ids(5);
        assertEquals(Set.copyOf(first), batch(consumer, first), "all new the first time");
        assertEquals(Set.of(), batch(consumer, first), "none new the second time");

        List<String> mixed = new ArrayList<>(first.subList(0, 2));
        List<String> fresh = ids(3);
        mixed.addAll(fresh);
        mixed.add(fresh.get(0)); // a duplicate inside the batch counts once
        assertEquals(Set.copyOf(fresh), batch(consumer, mixed), "only the unseen ones");
        assertEquals(Set.of(), batch(consumer, List.of()), "an empty batch is nothing");
    }

    @Test
    void theBatchAndTheSingleFormShareTheirMarkersAndConsumersAreIndependent() {
        String consumer = consumer();
        String other = consumer();
        List<String> events = ids(3);
        assertTrue(QuarkusTransaction.requiringNew().call(() -> inbox.firstDelivery(consumer, events.get(0))));
        assertEquals(Set.copyOf(events.subList(1, 3)), batch(consumer, events), "the single form's marker counts");
        assertFalse(QuarkusTransaction.requiringNew().call(() -> inbox.firstDelivery(consumer, events.get(2))),
                "and the batch's markers count for the single form");
        assertEquals(Set.copyOf(events), batch(other, events), "another consumer sees them all as new");
    }

    @Test
    void markersRollBackWithTheTransaction() {
        String consumer = consumer();
        List<String> events = ids(4);
        assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            assertEquals(4, inbox.firstDeliveries(consumer, events).size());
            throw new IllegalStateException("the consumer crashes before its change commits");
        }));
        assertEquals(Set.copyOf(events), batch(consumer, events), "a rolled-back batch is seen as new again");
    }

    @Test
    void outsideATransactionTheGuardRefusesToRun() {
        assertThrows(TransactionalException.class, () -> inbox.firstDeliveries(consumer(), ids(1)));
    }

    @Test
    void consumersRacingForOverlappingBatchesGetEachEventOnce() throws Exception {
        String consumer = consumer();
        List<String> events = ids(200);
        ExecutorService replicas = Executors.newFixedThreadPool(4);
        List<Set<String>> answers = new ArrayList<>();
        try {
            List<Future<Set<String>>> runs = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                List<String> shuffled = new ArrayList<>(events);
                java.util.Collections.shuffle(shuffled);
                runs.add(replicas.submit(() -> batch(consumer, shuffled)));
            }
            for (Future<Set<String>> run : runs) {
                answers.add(run.get());
            }
        } finally {
            replicas.shutdown();
        }
        int total = answers.stream().mapToInt(Set::size).sum();
        assertEquals(events.size(), total, "no event handed out twice");
        Set<String> union = new java.util.HashSet<>();
        answers.forEach(union::addAll);
        assertEquals(Set.copyOf(events), union, "and none lost");
    }

    private Set<String> batch(String consumer, List<String> events) {
        return QuarkusTransaction.requiringNew().call(() -> inbox.firstDeliveries(consumer, events));
    }
}
