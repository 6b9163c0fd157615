package dev.cryptopay.webhook.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.cryptopay.support.testing.TestTokens;
import dev.cryptopay.webhook.domain.Delivery;
import dev.cryptopay.webhook.domain.DeliveryAttempt;
import dev.cryptopay.webhook.testing.Api;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Pagination of the delivery log (docs/decisions.md §5) on a log written directly: 5 attempts of 2 deliveries. */
@QuarkusTest
class DeliveryLogPaginationTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2025, 3, 1, 12, 0, 0, 0, ZoneOffset.UTC);

    private UUID account;
    private String webhook;
    private String path;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @BeforeEach
    void writeLog() {
        account = UUID.randomUUID();
        // port 9 (discard) is never listened on here; the rows below are written directly, nothing is sent
        webhook = Api.createWebhook(account, "log", "http://127.0.0.1:9/x", List.of("*")).getString("uuid");
        Api.setStatus(account, webhook, -1);
        path = "/accounts/" + account + "/webhooks/" + webhook + "/deliveries";
        UUID webhookId = UUID.fromString(webhook);
        QuarkusTransaction.requiringNew().run(() -> {
            Delivery failed = delivery(webhookId, "evt-a", "transaction.success", Delivery.FAILED);
            Delivery ok = delivery(webhookId, "evt-b", "refund.created", Delivery.DELIVERED);
            attempt(failed, 1, T0.plusSeconds(1), 500, null);
            attempt(failed, 2, T0.plusSeconds(2), null, "connection refused");
            attempt(failed, 3, T0.plusSeconds(3), 404, null);
            attempt(ok, 1, T0.plusSeconds(3), 502, null); // same time as the one before: ties stay stable
            attempt(ok, 2, T0.plusSeconds(5), 204, null);
        });
    }

    private RequestSpecification reader() {
        return given().auth().oauth2(TestTokens.apiKey(account, "read_only"));
    }

    @Test
    void newestFirstWithEveryDocumentedField() {
        reader().when().get(path)
                .then().statusCode(200)
                .body("$", aMapWithSize(2))
                .body("metadata.totalCount", equalTo(5))
                .body("metadata.count", equalTo(5))
                .body("metadata.page", equalTo(1))
                .body("metadata.pageSize", equalTo(20))
                .body("deliveries.attemptedAt", contains("2025-03-01T12:00:05Z", "2025-03-01T12:00:03Z",
                        "2025-03-01T12:00:03Z", "2025-03-01T12:00:02Z", "2025-03-01T12:00:01Z"))
                .body("deliveries[0]", aMapWithSize(11))
                .body("deliveries[0].eventId", equalTo("evt-b"))
                .body("deliveries[0].eventType", equalTo("refund.created"))
                .body("deliveries[0].attempt", equalTo(2))
                .body("deliveries[0].httpStatus", equalTo(204))
                .body("deliveries[0].error", nullValue())
                .body("deliveries[0].durationMs", equalTo(42))
                .body("deliveries[0].succeeded", equalTo(true))
                .body("deliveries[0].deliveryStatus", equalTo("delivered"))
                .body("deliveries[0].nextAttemptAt", nullValue())
                .body("deliveries[3].httpStatus", nullValue())
                .body("deliveries[3].error", equalTo("connection refused"))
                .body("deliveries[3].deliveryStatus", equalTo("failed"))
                .body("deliveries.succeeded", contains(true, false, false, false, false));
    }

    @Test
    void pagesAreStableAndDisjoint() {
        List<String> all = reader().when().get(path).then().extract().jsonPath()
                .getList("deliveries.collect { it.deliveryId + '#' + it.attempt }");
        List<String> paged = new java.util.ArrayList<>();
        for (int page = 1; page <= 3; page++) {
            paged.addAll(reader().queryParam("limit", 2).queryParam("page", page).when().get(path)
                    .then().statusCode(200)
                    .body("metadata.page", equalTo(page))
                    .body("metadata.pageSize", equalTo(2))
                    .body("metadata.count", equalTo(page < 3 ? 2 : 1))
                    .body("metadata.totalCount", equalTo(5))
                    .extract().jsonPath().getList("deliveries.collect { it.deliveryId + '#' + it.attempt }"));
        }
        org.junit.jupiter.api.Assertions.assertEquals(all, paged);
    }

    @Test
    void limitIsClampedTo100AndAPagePastTheEndIsEmpty() {
        reader().queryParam("limit", 1000).when().get(path)
                .then().statusCode(200)
                .body("metadata.pageSize", equalTo(100))
                .body("metadata.count", equalTo(5))
                .body("deliveries", hasSize(5));
        reader().queryParam("page", 99).when().get(path)
                .then().statusCode(200)
                .body("deliveries", empty())
                .body("metadata.totalCount", equalTo(5))
                .body("metadata.count", equalTo(0))
                .body("metadata.page", equalTo(99))
                .body("metadata.pageSize", equalTo(20));
        // The listings' shared rule (service-support PageRequest, docs/decisions.md §5): a page that starts beyond
        // ten million items is a 400 on page, never a 500 or an overflow.
        reader().queryParam("page", Integer.MAX_VALUE).queryParam("limit", 100).when().get(path)
                .then().statusCode(400).body("code", equalTo("validation_failed"))
                .body("errors.field", contains("page"));
    }

    @Test
    void limitOrPageBelowOneOrNotANumberIs400() {
        reader().queryParam("limit", 0).when().get(path)
                .then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("validation_failed")).body("errors.field", contains("limit"));
        reader().queryParam("page", 0).when().get(path)
                .then().statusCode(400).body("errors.field", contains("page"));
        reader().queryParam("limit", -5).queryParam("page", -1).when().get(path)
                .then().statusCode(400).body("errors.field", contains("limit", "page"));
        reader().queryParam("limit", "ten").when().get(path)
                .then().statusCode(400).body("errors.field", hasItem("limit"));
        reader().queryParam("page", "1.5").when().get(path)
                .then().statusCode(400).body("errors.field", hasItem("page"));
        reader().queryParam("page", "99999999999").when().get(path)
                .then().statusCode(400).body("errors.field", hasItem("page"));
    }

    private static Delivery delivery(UUID webhookId, String eventId, String type, String status) {
        Delivery d = new Delivery();
        d.id = UUID.randomUUID();
        d.webhookId = webhookId;
        d.accountId = UUID.randomUUID();
        d.eventId = eventId;
        d.eventType = type;
        d.status = status;
        d.createdAt = T0;
        d.updatedAt = T0;
        d.persist();
        return d;
    }

    private static void attempt(Delivery delivery, int number, OffsetDateTime at, Integer status, String error) {
        DeliveryAttempt a = new DeliveryAttempt();
        a.id = UUID.randomUUID();
        a.deliveryId = delivery.id;
        a.webhookId = delivery.webhookId;
        a.attempt = number;
        a.attemptedAt = at;
        a.httpStatus = status;
        a.error = error;
        a.durationMs = 42;
        a.succeeded = status != null && status < 300;
        a.persist();
    }
}
