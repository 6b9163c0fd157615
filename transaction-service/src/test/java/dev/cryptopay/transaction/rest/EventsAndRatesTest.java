package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.Topics;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.outbox.OutboxEvent;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class EventsAndRatesTest {

    @jakarta.inject.Inject
    jakarta.persistence.EntityManager em;

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @Test
    void everyChangeWritesItsEventWithTheFullTransactionThroughTheOutbox() throws Exception {
        MerchantConfiguration m = merchant(c -> c);
        String id = create(apiKey(m), body("42", "USD", "USDC", "ethereum")).get("transactionId").asText();
        JsonNode afterCreate = Fixtures.get(apiKey(m), id);
        JsonNode afterCancel = Fixtures.tree(apiKey(m).contentType(ContentType.JSON).body("{\"reason\":\"test\"}")
                .when().patch("/transaction/" + id + "/cancel").then().statusCode(200).extract().asString());

        List<OutboxEvent> rows = events(id);
        assertEquals(List.of("transaction.created", "transaction.cancelled"), rows.stream().map(r -> r.eventType).toList());
        // not a billing transaction: nothing goes to the internal billing topic (decisions §109)
        assertEquals(List.of(Topics.TRANSACTIONS, Topics.TRANSACTIONS), rows.stream().map(r -> r.topic).toList());
        CloudEvent created = CloudEvent.parse(rows.get(0).payload);
        assertEquals(Topics.TRANSACTIONS, rows.get(0).topic);
        assertEquals(id, created.subject());
        assertEquals("/transaction-service", created.source());
        assertEquals(afterCreate, Fixtures.tree(created.data().toString()));
        assertEquals(m.accountId(), created.data().get("accountID").asText());
        assertEquals(afterCancel, Fixtures.tree(CloudEvent.parse(rows.get(1).payload).data().toString()));

        MerchantConfiguration kyc = merchant(c -> c.kycEnabled(true));
        String waiting = create(apiKey(kyc), body("42", "USD", "USDC", "ethereum")).get("transactionId").asText();
        apiKey(kyc).contentType(ContentType.JSON).body("{\"forfeit\":true}").when().patch("/transaction/" + waiting + "/cancel")
                .then().statusCode(200);
        assertEquals(List.of("transaction.created", "transaction.kyc_required", "transaction.cancelled"),
                events(waiting).stream().map(r -> r.eventType).toList());
        // one version per event, without gaps, so a consumer tells a gap from a duplicate
        assertEquals(List.of(1, 2, 3), events(waiting).stream()
                .map(r -> CloudEvent.parse(r.payload).data().get("version").asInt()).toList());
        String forfeited = create(apiKey(m), body("42", "USD", "USDC", "ethereum")).get("transactionId").asText();
        apiKey(m).contentType(ContentType.JSON).body("{\"forfeit\":true}").when().patch("/transaction/" + forfeited + "/cancel")
                .then().statusCode(200);
        assertEquals(List.of("transaction.created", "transaction.forfeited"),
                events(forfeited).stream().map(r -> r.eventType).toList());

        // the relay publishes them to the test broker
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (events(id).stream().anyMatch(r -> r.publishedAt == null)) {
            assertTrue(Instant.now().isBefore(deadline), "events not relayed to Kafka within 30 s");
            Thread.sleep(100);
        }
    }

    @Test
    void theOperatorSetsAndReadsTheRateTable() {
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"CHF\",\"usd\":\"1.1312\",\"asOf\":\"2026-11-21T10:00:00Z\"},"
                        + "{\"code\":\"USDT\",\"usd\":0.9998}]}")
                .when().put("/operator/rates").then().statusCode(200)
                .body("rates.find { it.code == 'CHF' }.usd", equalTo(new java.math.BigDecimal("1.1312")))
                .body("rates.find { it.code == 'CHF' }.kind", equalTo("fiat"))
                .body("rates.find { it.code == 'CHF' }.asOf", equalTo("2026-11-21T10:00:00Z"))
                .body("rates.find { it.code == 'USDT' }.kind", equalTo("crypto"));
        given().auth().oauth2(TestTokens.operator()).when().get("/operator/rates").then().statusCode(200)
                .body("rates.code", hasItems("USD", "EUR", "GBP", "CAD", "AUD", "JPY", "CHF", "SGD", "BTC", "ETH",
                        "USDC", "USDT"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"USDT\",\"usd\":\"1\"}]}").when().put("/operator/rates")
                .then().statusCode(200);

        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"XYZ\",\"usd\":\"1\"},{\"code\":\"EUR\",\"usd\":\"-1\"},"
                        + "{\"code\":\"GBP\",\"usd\":\"1.2\",\"asOf\":\"yesterday\"},{\"code\":\"USD\",\"usd\":\"2\"},"
                        + "{\"code\":\"CAD\",\"usd\":\"0.7\",\"asOf\":\"2999-01-01T00:00:00Z\"}]}")
                .when().put("/operator/rates").then().statusCode(400)
                .body("errors.field", equalTo(List.of("rates[0].code", "rates[1].usd", "rates[2].asOf",
                        "rates[3].usd", "rates[4].asOf")));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{}")
                .when().put("/operator/rates").then().statusCode(400).body("errors.field", hasItem("rates"));
        given().auth().oauth2(TestTokens.admin(java.util.UUID.randomUUID())).when().get("/operator/rates")
                .then().statusCode(403);
    }

    private List<OutboxEvent> events(String transactionId) {
        return QuarkusTransaction.requiringNew().call(() -> em
                .createQuery("from OutboxEvent e where e.messageKey = ?1 order by e.seq", OutboxEvent.class)
                .setParameter(1, transactionId).getResultList());
    }
}
