package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.await;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.transfer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.outbox.OutboxEvent;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Expiry ends a batch of transactions at once, reading their payment requests, transfers and refunds in one query
 * each (docs/decisions.md §93): every transaction of the batch still gets its own {@code transaction.expired} event
 * with the transaction exactly as Get Transaction answers it afterwards, its own payments and transfers and none of
 * the others'.
 */
@QuarkusTest
class ExpiryBatchTest {

    @Inject
    EntityManager em;

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @BeforeEach
    void rates() {
        Fixtures.rate("BTC", "50000", null);
    }

    @Test
    void aBatchOfDueTransactionsExpiresEachWithItsOwnEvent() {
        MerchantConfiguration m = merchant(c -> c.minConfirms(1, 1));
        List<String> ids = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            JsonNode created = create(apiKey(m), body("100", "USD", "BTC", "bitcoin"));
            ids.add(created.get("transactionId").asText());
            addresses.add(created.get("address").asText());
        }
        // two of them partly paid (0.001 and 0.0005 of 0.002 BTC), confirmed: they expire with their transfer
        transfer(m, "bitcoin", "BTC", addresses.get(1), "0.001", 1);
        transfer(m, "bitcoin", "BTC", addresses.get(3), "0.0005", 1);
        await(m, ids.get(1), tx -> confirmedTransfers(tx) == 1);
        await(m, ids.get(3), tx -> confirmedTransfers(tx) == 1);

        int due = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "update transaction set expiration = now() - interval '1 second' where id in (?1, ?2, ?3, ?4)")
                .setParameter(1, UUID.fromString(ids.get(0))).setParameter(2, UUID.fromString(ids.get(1)))
                .setParameter(3, UUID.fromString(ids.get(2))).setParameter(4, UUID.fromString(ids.get(3)))
                .executeUpdate());
        assertEquals(4, due);

        List<String> received = List.of("0", "50", "0", "25");
        for (int i = 0; i < 4; i++) {
            String id = ids.get(i);
            JsonNode expired = await(m, id, tx -> tx.get("status").asInt() == -1);
            List<OutboxEvent> events = events(id);
            OutboxEvent last = events.get(events.size() - 1);
            assertEquals("transaction.expired", last.eventType);
            JsonNode data = CloudEvent.parse(last.payload).data();
            assertEquals(expired, Fixtures.tree(data.toString()), "the event of " + id + " is its Get Transaction");
            assertEquals(id, data.get("transactionID").asText());
            assertEquals(addresses.get(i), data.get("payments").get(0).get("address").asText());
            assertEquals(1, data.get("payments").size());
            assertEquals(i % 2, data.get("payments").get(0).get("transfers").size());
            // a request awaiting funds expires with its transaction; an underpaid one stays underpaid (3)
            assertEquals(i % 2 == 0 ? -1 : 3, data.get("payments").get(0).get("status").asInt());
            assertEquals(0, new BigDecimal(received.get(i))
                    .compareTo(data.get("amounts").get("receivedUSD").decimalValue()), id);
            // one version per event, without gaps
            assertEquals(IntStream.rangeClosed(1, events.size()).boxed().toList(), events.stream()
                    .map(e -> CloudEvent.parse(e.payload).data().get("version").asInt()).toList());
        }
    }

    private static int confirmedTransfers(JsonNode tx) {
        JsonNode transfers = tx.get("payments").get(0).get("transfers");
        int confirmed = 0;
        for (JsonNode t : transfers) {
            confirmed += "confirmed".equals(t.get("status").asText()) ? 1 : 0;
        }
        return confirmed;
    }

    private List<OutboxEvent> events(String transactionId) {
        return QuarkusTransaction.requiringNew().call(() -> em
                .createQuery("from OutboxEvent e where e.messageKey = ?1 order by e.seq", OutboxEvent.class)
                .setParameter(1, transactionId).getResultList());
    }
}
