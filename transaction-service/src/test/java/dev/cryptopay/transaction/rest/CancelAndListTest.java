package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.transaction.domain.Transaction;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
class CancelAndListTest {

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @Test
    void cancellingAPendingTransactionStoresTheReasonAndAnswersTheTransaction() {
        MerchantConfiguration m = merchant(c -> c);
        String id = create(apiKey(m), body("20", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        JsonNode tx = cancel(m, id, "{\"reason\":\"customer left\"}", 200);
        assertEquals(-2, tx.get("status").asInt());
        assertEquals("customer left", tx.get("cancellationReason").asText());
        assertEquals(-2, tx.get("payments").get(0).get("status").asInt());
        assertEquals(21, tx.size());
        assertEquals(tx, Fixtures.get(apiKey(m), id));
        // final: a second cancel conflicts
        apiKey(m).contentType(ContentType.JSON).body("{}").when().patch("/transaction/" + id + "/cancel")
                .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("invalid_state"));
    }

    @Test
    void forfeitingMovesAPendingTransactionToForfeited() {
        MerchantConfiguration m = merchant(c -> c);
        String id = create(apiKey(m), body("20", "USD", "ETH", "ethereum")).get("transactionId").asText();
        JsonNode tx = cancel(m, id, "{\"forfeit\":true}", 200);
        assertEquals(-4, tx.get("status").asInt());
        assertEquals(true, tx.get("cancellationReason").isNull());
        cancel(m, id, "{\"forfeit\":true}", 409);
    }

    @Test
    void aTransactionWaitingForKycIsCancelledEvenWithForfeit() {
        MerchantConfiguration m = merchant(c -> c.kycEnabled(true));
        String id = create(apiKey(m), body("20", "USD", "ETH", "ethereum")).get("transactionId").asText();
        assertEquals(-2, cancel(m, id, "{\"forfeit\":true,\"reason\":\"no documents\"}", 200).get("status").asInt());
    }

    @ParameterizedTest(name = "status {0} is final")
    @CsvSource({ "1", "-1" })
    void finalStatesConflict(int status) {
        MerchantConfiguration m = merchant(c -> c);
        String id = create(apiKey(m), body("20", "USD", "ETH", "ethereum")).get("transactionId").asText();
        QuarkusTransaction.requiringNew().run(() -> Transaction.update("status = ?1 where id = ?2", status,
                UUID.fromString(id)));
        cancel(m, id, "{}", 409);
    }

    @Test
    void cancelNeedsTheMerchantsApiKeyAndAShortReason() {
        MerchantConfiguration m = merchant(c -> c);
        String id = create(apiKey(m), body("20", "USD", "ETH", "ethereum")).get("transactionId").asText();
        publishable(m).contentType(ContentType.JSON).body("{}").when().patch("/transaction/" + id + "/cancel")
                .then().statusCode(403);
        apiKey(m).contentType(ContentType.JSON).body("{\"reason\":\"" + "r".repeat(256) + "\"}")
                .when().patch("/transaction/" + id + "/cancel").then().statusCode(400)
                .body("errors.field", hasItem("reason"));
        apiKey(m).contentType(ContentType.JSON).body("{\"forfeit\":\"yes\"}")
                .when().patch("/transaction/" + id + "/cancel").then().statusCode(400);
        MerchantConfiguration sibling = merchant(c -> c.accountId(UUID.fromString(m.accountId())));
        apiKey(sibling).contentType(ContentType.JSON).body("{}").when().patch("/transaction/" + id + "/cancel")
                .then().statusCode(404);
    }

    @Test
    void listingFiltersPagesAndOrdersNewestFirst() {
        UUID account = UUID.randomUUID();
        MerchantConfiguration shop = merchant(c -> c.accountId(account).externalMID("shop"));
        MerchantConfiguration kiosk = merchant(c -> c.accountId(account));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(create(apiKey(shop), "{\"amount\":" + (10 + i) + ",\"amountCurrency\":\"USD\",\"asset\":\"BTC\","
                    + "\"network\":\"bitcoin\",\"referenceNumber\":\"ref-" + (i % 2) + "\"}").get("transactionId").asText());
        }
        String kioskTx = create(apiKey(kiosk), body("99", "USD", "USDC", "base")).get("transactionId").asText();
        cancel(shop, ids.get(0), "{}", 200);
        // an unrelated account's transaction never shows
        create(apiKey(merchant(c -> c)), body("1", "USD", "BTC", "bitcoin"));

        JsonNode all = list(account, "limit=100&page=1");
        assertEquals(List.of(kioskTx, ids.get(4), ids.get(3), ids.get(2), ids.get(1), ids.get(0)), idsOf(all));
        assertEquals(6, all.get("metadata").get("totalCount").asInt());
        assertEquals(6, all.get("metadata").get("count").asInt());
        assertEquals(100, all.get("metadata").get("pageSize").asInt());
        assertEquals(21, all.get("transactions").get(0).size());

        JsonNode second = list(account, "limit=4&page=2");
        assertEquals(List.of(ids.get(1), ids.get(0)), idsOf(second));
        assertEquals(6, second.get("metadata").get("totalCount").asInt());
        assertEquals(2, second.get("metadata").get("count").asInt());
        assertEquals(2, second.get("metadata").get("page").asInt());
        JsonNode beyond = list(account, "limit=4&page=3");
        assertEquals(0, beyond.get("transactions").size());
        assertEquals(6, beyond.get("metadata").get("totalCount").asInt());
        assertEquals(100, list(account, "limit=1000&page=1").get("metadata").get("pageSize").asInt());

        assertEquals(List.of(ids.get(0)), idsOf(list(account, "limit=10&page=1&status=-2")));
        assertEquals(6, list(account, "limit=10&page=1&status=0,-2").get("metadata").get("totalCount").asInt());
        assertEquals(List.of(kioskTx), idsOf(list(account, "limit=10&page=1&subMerchantId=" + kiosk.merchantId())));
        assertEquals(5, list(account, "limit=10&page=1&subMerchantId=shop").get("metadata").get("totalCount").asInt());
        assertEquals(0, list(account, "limit=10&page=1&subMerchantId=nobody").get("metadata").get("totalCount").asInt());
        assertEquals(List.of(ids.get(3), ids.get(1)), idsOf(list(account, "limit=10&page=1&referenceNumber=ref-1")));
    }

    @Test
    void listingTimeFiltersTakeTimestampsAndWholeDays() {
        UUID account = UUID.randomUUID();
        MerchantConfiguration m = merchant(c -> c.accountId(account));
        String older = create(apiKey(m), body("1", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        String newer = create(apiKey(m), body("2", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        OffsetDateTime day = OffsetDateTime.of(2026, 3, 14, 23, 59, 59, 999_999_000, ZoneOffset.UTC);
        QuarkusTransaction.requiringNew().run(() -> {
            Transaction.update("createdAt = ?1 where id = ?2", day, UUID.fromString(older));
            Transaction.update("createdAt = ?1 where id = ?2", day.plusNanos(1000), UUID.fromString(newer));
        });
        assertEquals(List.of(older), idsOf(list(account, "limit=10&page=1&endTime=2026-03-14")));
        assertEquals(List.of(older), idsOf(list(account, "limit=10&page=1&startTime=2026-03-14&endTime=2026-03-14")));
        assertEquals(List.of(newer), idsOf(list(account, "limit=10&page=1&startTime=2026-03-15")));
        assertEquals(List.of(newer, older), idsOf(list(account,
                "limit=10&page=1&startTime=2026-03-14T23:00:00Z&endTime=2026-03-15T00:00:00Z")));
        assertEquals(List.of(older), idsOf(list(account,
                "limit=10&page=1&endTime=2026-03-14T23:59:59.999999Z")));
        assertEquals(List.of(newer), idsOf(list(account,
                "limit=10&page=1&startTime=2026-03-14T23:00:00-01:00")));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "page=1| limit",
            "limit=10| page",
            "limit=0&page=1| limit",
            "limit=10&page=0| page",
            "limit=ten&page=1| limit",
            "limit=10&page=1&status=7| status",
            "limit=10&page=1&status=0,x| status",
            "limit=10&page=1&startTime=yesterday| startTime",
            "limit=10&page=1&endTime=2026-13-01| endTime",
            "limit=10&page=1&startTime=2026-03-15&endTime=2026-03-14| endTime",
    })
    void malformedListingQueriesAreRefused(String query, String field) {
        UUID account = UUID.randomUUID();
        apiKey(account, IdentityClaims.ROLE_READ_ONLY, null).when().get("/transactions?" + query)
                .then().statusCode(400).contentType("application/problem+json").body("errors.field", hasItem(field));
    }

    @Test
    void listingNeedsAnApiKey() {
        publishable(UUID.randomUUID(), null, null).when().get("/transactions?limit=10&page=1").then().statusCode(403);
    }

    private static JsonNode cancel(MerchantConfiguration m, String id, String body, int status) {
        return Fixtures.tree(apiKey(m).contentType(ContentType.JSON).body(body)
                .when().patch("/transaction/" + id + "/cancel").then().statusCode(status).extract().asString());
    }

    private static JsonNode list(UUID account, String query) {
        RequestSpecification as = apiKey(account, IdentityClaims.ROLE_READ_ONLY, null);
        return Fixtures.tree(as.when().get("/transactions?" + query).then().statusCode(200).extract().asString());
    }

    private static List<String> idsOf(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("transactions").forEach(t -> ids.add(t.get("transactionID").asText()));
        return ids;
    }

    static BigDecimal decimal(JsonNode node) {
        return node.decimalValue();
    }
}
