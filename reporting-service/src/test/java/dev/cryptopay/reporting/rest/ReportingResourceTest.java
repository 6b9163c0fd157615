package dev.cryptopay.reporting.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.reporting.testing.Api;
import dev.cryptopay.reporting.testing.Await;
import dev.cryptopay.reporting.testing.Events;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The three documented reporting endpoints on a projected account: every filter, pagination edges, identity
 * (403 for another account's path, 404 for another account's transaction) and the validation 400s.
 */
@QuarkusTest
class ReportingResourceTest {

    static final UUID ACCOUNT = UUID.randomUUID();
    static final UUID OTHER = UUID.randomUUID();
    static final UUID SHOP = UUID.randomUUID();
    static final UUID KIOSK = UUID.randomUUID();
    /** Transactions of ACCOUNT, newest first: index i was created on 2026-02-(20 - i) at 10:00. */
    static final List<UUID> TX = new ArrayList<>();
    static UUID othersTransaction;

    private static boolean projected;

    /** Once per class, but inside the running application (REST Assured knows its port only then). */
    @BeforeEach
    void project() {
        Api.configure();
        if (projected) {
            return;
        }
        projected = true;
        try (Events events = new Events()) {
            for (int i = 0; i < 8; i++) {
                UUID id = UUID.randomUUID();
                TX.add(id);
                Instant created = Instant.parse("2026-02-%02dT10:00:00Z".formatted(20 - i));
                int status = switch (i % 4) {
                    case 0 -> 1;
                    case 1 -> 0;
                    case 2 -> -2;
                    default -> -1;
                };
                int paymentStatus = status == 1 ? (i == 4 ? 4 : 1) : (i == 1 ? 3 : 0);
                ObjectNode data = Events.transaction(ACCOUNT, i < 5 ? SHOP : KIOSK, id, 1, status, paymentStatus,
                        status == 1 ? "100" : "0", created, created.plusSeconds(60));
                ((ObjectNode) data.get("amounts")).put("currency", i % 2 == 0 ? "USD" : "EUR");
                data.put("referenceNumber", i == 3 ? "order,\"3\"" : "order-" + i);
                events.transaction("transaction.created", data);
            }
            othersTransaction = UUID.randomUUID();
            Instant created = Instant.parse("2026-02-15T10:00:00Z");
            events.transaction("transaction.created", Events.transaction(OTHER, UUID.randomUUID(), othersTransaction,
                    1, 0, 0, "0", created, created));
        }
        Await.until(() -> total(ACCOUNT) == 8 && total(OTHER) == 1, () -> "projection incomplete");
    }

    static RequestSpecification as(UUID account) {
        return Api.as(account);
    }

    static long total(UUID account) {
        return as(account).get("/accounts/" + account + "/transactions").then().statusCode(200).extract().jsonPath()
                .getLong("total");
    }

    @Test
    void listsNewestFirstWithEveryDocumentedField() {
        JsonPath page = list(ACCOUNT);
        assertEquals(8, page.getInt("total"));
        assertEquals(ids(0, 1, 2, 3, 4, 5, 6, 7), page.getList("transactions.transactionID"));
        String first = "transactions[0].";
        assertEquals(ACCOUNT.toString(), page.getString(first + "accountID"));
        assertEquals(SHOP.toString(), page.getString(first + "merchantID"));
        assertEquals("order-0", page.getString(first + "referenceNumber"));
        assertEquals(1, page.getInt(first + "status"));
        assertEquals("USD", page.getString(first + "currency"));
        assertEquals(new BigDecimal("100.00"), page.getObject(first + "totalUSD", BigDecimal.class));
        assertEquals("2026-02-20T10:00:00Z", page.getString(first + "sourceCreatedAt"));
        assertEquals("2026-02-20T10:01:00Z", page.getString(first + "sourceUpdatedAt"));
        assertEquals("0xpayer", page.getString(first + "payments[0].fromAddress"));
        assertEquals("POL", page.getString(first + "payments[0].gasFeeUnits"));
        assertEquals(true, page.getBoolean(first + "payments[0].fraudPass"));
        assertEquals("2026-02-20T10:00:00Z", page.getString(first + "payments[0].createdAt"));
        for (String field : List.of("transactionID", "accountID", "merchantID", "externalMID", "descriptor",
                "referenceNumber", "status", "paymentStatus", "currency", "totalLocal", "totalUSD", "receivedUSD",
                "customerFeeUSD", "fxRateToUSD", "payments", "cancellationReason", "expiration", "sourceCreatedAt",
                "sourceUpdatedAt")) {
            assertEquals(true, page.getMap("transactions[0]").containsKey(field), field);
        }
        for (String field : List.of("paymentRequestID", "cryptoAsset", "cryptoNetwork", "address", "fromAddress",
                "expectedUSD", "receivedCrypto", "gasFee", "gasFeeUnits", "txnHash", "status", "fraudPass",
                "createdAt")) {
            assertEquals(true, page.getMap("transactions[0].payments[0]").containsKey(field), field);
        }
    }

    @Test
    void everyFilterNarrowsTheListing() {
        assertEquals(ids(0, 1, 2, 3, 4), list(ACCOUNT, "merchantID", SHOP.toString())
                .getList("transactions.transactionID"));
        assertEquals(ids(3), list(ACCOUNT, "referenceNumber", "order,\"3\"")
                .getList("transactions.transactionID"));
        assertEquals(ids(0, 4), list(ACCOUNT, "statuses", 1).getList("transactions.transactionID"));
        assertEquals(ids(0, 2, 4, 6), list(ACCOUNT, "statuses", 1, "statuses", -2)
                .getList("transactions.transactionID"));
        assertEquals(ids(0, 2, 4, 6), list(ACCOUNT, "statuses", "1,-2")
                .getList("transactions.transactionID"));
        assertEquals(ids(4), list(ACCOUNT, "paymentStatuses", 4).getList("transactions.transactionID"));
        assertEquals(ids(1, 4), list(ACCOUNT, "paymentStatuses", 3, "paymentStatuses", 4)
                .getList("transactions.transactionID"));
        assertEquals(ids(1, 3, 5, 7), list(ACCOUNT, "currency", "EUR")
                .getList("transactions.transactionID"));
        // a date as toDate includes that whole day; fromDate a timestamp
        assertEquals(ids(2, 3, 4), list(ACCOUNT, "fromDate", "2026-02-16", "toDate", "2026-02-18")
                .getList("transactions.transactionID"));
        assertEquals(ids(2, 3), list(ACCOUNT, "fromDate", "2026-02-16T10:00:00.000001Z", "toDate",
                "2026-02-18T10:00:00Z").getList("transactions.transactionID"));
        assertEquals(ids(4), list(ACCOUNT, "merchantID", SHOP.toString(), "statuses", 1, "toDate", "2026-02-17")
                .getList("transactions.transactionID"));
        assertEquals(0, list(ACCOUNT, "merchantID", UUID.randomUUID().toString()).getInt("total"));
    }

    @Test
    void paginationEdges() {
        JsonPath firstTwo = list(ACCOUNT, "limit", 2);
        assertEquals(8, firstTwo.getInt("total"));
        assertEquals(ids(0, 1), firstTwo.getList("transactions.transactionID"));
        assertEquals(ids(6, 7), list(ACCOUNT, "limit", 2, "offset", 6)
                .getList("transactions.transactionID"));
        assertEquals(ids(7), list(ACCOUNT, "limit", 2, "offset", 7)
                .getList("transactions.transactionID"));
        JsonPath past = list(ACCOUNT, "offset", 8);
        assertEquals(8, past.getInt("total"));
        assertEquals(List.of(), past.getList("transactions"));
        assertEquals(List.of(), list(ACCOUNT, "offset", Long.MAX_VALUE).getList("transactions"));
        // larger limits are clamped to 1000, not refused
        assertEquals(8, list(ACCOUNT, "limit", 5000).getList("transactions").size());
        assertEquals(8, list(ACCOUNT, "limit", 1).getInt("total"));
    }

    @Test
    void oneTransactionWithComplianceAndExtendedPayments() {
        JsonPath tx = as(ACCOUNT).get("/accounts/" + ACCOUNT + "/transactions/" + TX.get(0)).then().statusCode(200)
                .extract().jsonPath();
        assertEquals(TX.get(0).toString(), tx.getString("transactionID"));
        assertEquals(false, tx.getBoolean("compliance.kycTriggered"));
        assertEquals(false, tx.getBoolean("compliance.travelRuleTriggered"));
        assertEquals(new BigDecimal("100.000000"), tx.getObject("payments[0].expectedCrypto", BigDecimal.class));
        assertEquals(new BigDecimal("100"), tx.getObject("payments[0].receivedUSD", BigDecimal.class));
        assertEquals(1, tx.getInt("payments[0].confirmationCount"));
        assertEquals(new BigDecimal("1.000000"), tx.getObject("payments[0].cryptoRatePerUSD", BigDecimal.class));
        assertEquals("MetaMask", tx.getString("payments[0].walletName"));
        assertEquals("2026-02-20T10:01:00Z", tx.getString("payments[0].completedAt"));
        assertEquals("2026-02-20T10:15:00Z", tx.getString("payments[0].expiration"));
        assertEquals("2026-02-20T10:00:00Z", tx.getString("payments[0].sourceCreatedAt"));
        assertEquals("2026-02-20T10:01:00Z", tx.getString("payments[0].sourceUpdatedAt"));
    }

    @Test
    void identity() {
        // another account's path: 403 (also a path that is not a UUID)
        as(ACCOUNT).get("/accounts/" + OTHER + "/transactions").then().statusCode(403).body("code", equalTo("forbidden"));
        as(ACCOUNT).get("/accounts/" + OTHER + "/reporting/summary").then().statusCode(403);
        as(ACCOUNT).get("/accounts/" + OTHER + "/reporting/settlements").then().statusCode(403);
        as(ACCOUNT).get("/accounts/not-a-uuid/transactions").then().statusCode(403);
        // another account's transaction under one's own path: 404, like an unknown one
        as(ACCOUNT).get("/accounts/" + ACCOUNT + "/transactions/" + othersTransaction).then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("not_found"));
        as(ACCOUNT).get("/accounts/" + ACCOUNT + "/transactions/" + UUID.randomUUID()).then().statusCode(404);
        as(ACCOUNT).get("/accounts/" + ACCOUNT + "/transactions/nope").then().statusCode(404);
        // the other account never sees this account's rows
        assertEquals(List.of(othersTransaction.toString()), list(OTHER).getList("transactions.transactionID"));
        // read_only keys may read; publishable keys and anonymous callers may not; no token is 401
        given().auth().oauth2(TestTokens.apiKey(ACCOUNT, IdentityClaims.ROLE_READ_ONLY))
                .get("/accounts/" + ACCOUNT + "/transactions").then().statusCode(200);
        given().auth().oauth2(TestTokens.apiKey(ACCOUNT, IdentityClaims.ROLE_PUBLISHABLE))
                .get("/accounts/" + ACCOUNT + "/transactions").then().statusCode(403);
        given().get("/accounts/" + ACCOUNT + "/transactions").then().statusCode(401);
    }

    @Test
    void malformedParametersAre400NamingThem() {
        String path = "/accounts/" + ACCOUNT + "/transactions";
        bad(as(ACCOUNT).queryParam("limit", 0), path, "limit");
        bad(as(ACCOUNT).queryParam("limit", "ten"), path, "limit");
        bad(as(ACCOUNT).queryParam("offset", -1), path, "offset");
        bad(as(ACCOUNT).queryParam("offset", "1.5"), path, "offset");
        bad(as(ACCOUNT).queryParam("fromDate", "2026-02-30"), path, "fromDate");
        bad(as(ACCOUNT).queryParam("toDate", "yesterday"), path, "toDate");
        bad(as(ACCOUNT).queryParam("fromDate", "2026-02-18").queryParam("toDate", "2026-02-10"), path, "toDate");
        bad(as(ACCOUNT).queryParam("statuses", 7), path, "statuses");
        bad(as(ACCOUNT).queryParam("paymentStatuses", "paid"), path, "paymentStatuses");
        bad(as(ACCOUNT).queryParam("currency", "XYZ"), path, "currency");
        bad(as(ACCOUNT).queryParam("merchantID", "shop"), path, "merchantID");
        bad(as(ACCOUNT).queryParam("referenceNumber", "r".repeat(256)), path, "referenceNumber");
        bad(as(ACCOUNT).queryParam("fromDate", "2026-02-10T25:00:00Z"), "/accounts/" + ACCOUNT + "/reporting/summary",
                "fromDate");
        bad(as(ACCOUNT).queryParam("merchantID", "x"), "/accounts/" + ACCOUNT + "/reporting/summary", "merchantID");
        bad(as(ACCOUNT).queryParam("limit", -5), "/accounts/" + ACCOUNT + "/reporting/settlements", "limit");
        // the CSV form validates the same filters
        bad(as(ACCOUNT).accept("text/csv").queryParam("toDate", "2026/02/01"), path, "toDate");
    }

    private static void bad(RequestSpecification request, String path, String field) {
        request.get(path).then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("validation_failed")).body("errors.field", hasItem(field));
    }

    static JsonPath list(UUID account, Object... parameters) {
        return Api.get(account, "transactions", parameters);
    }

    private static List<String> ids(int... indexes) {
        List<String> ids = new ArrayList<>();
        for (int i : indexes) {
            ids.add(TX.get(i).toString());
        }
        return ids;
    }
}
