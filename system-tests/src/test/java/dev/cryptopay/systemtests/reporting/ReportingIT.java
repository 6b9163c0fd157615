package dev.cryptopay.systemtests.reporting;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.config.JsonConfig;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Reporting through the gateway after real flows on the sandbox chain: a transaction paid in USDC on polygon, one
 * underpaid in BTC, one cancelled, for a merchant with a discount rate (2.5 % + 0.30 USD) and a platform fee
 * (50 bp + 10 cents, deducted). Everything read back comes from reporting-service's store, built from the topics.
 * The paid order is then refunded by 20 USD (paid out and completed on the sandbox chain), which the settlement
 * figures subtract.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReportingIT {

    private static SandboxAccount account;
    private static SandboxAccount stranger;
    private static String merchant;
    private static String paid;
    private static String underpaid;
    private static String cancelled;
    private static String refundId;

    @BeforeAll
    static void flows() {
        Suite suite = Suite.get();
        RestAssured.baseURI = Suite.gatewayUrl();
        RestAssured.config = RestAssured.config().jsonConfig(
                JsonConfig.jsonConfig().numberReturnType(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"BTC\",\"usd\":\"50000\"},{\"code\":\"USDC\",\"usd\":\"1\"}]}")
                .when().put("/operator/rates").then().statusCode(200);
        account = SandboxAccount.create("Reporting Ltd");
        stranger = SandboxAccount.create("Stranger Ltd");
        merchant = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        String one = "{\"minConfirmsLow\":1,\"minConfirmsHigh\":1,\"qrExpirationSeconds\":900}";
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"name\":\"Corner Shop\",\"address1\":\"1 Main St\",\"city\":\"Berlin\",\"region\":\"BE\","
                        + "\"country\":\"DE\",\"allowedCrypto\":\"BTC,USDC\",\"cryptoNetworkConfigs\":{"
                        + "\"bitcoin\":{\"cryptoAssetConfigs\":{\"BTC\":" + one + "}},"
                        + "\"polygon\":{\"cryptoAssetConfigs\":{\"USDC\":" + one + "}}},"
                        + "\"merchantDiscountRate\":{\"percentage\":0.025,\"flatRate\":0.30,\"flatRateCurrency\":\"USD\"},"
                        + "\"feeConfig\":{\"platform\":{\"collection\":\"deduct\","
                        + "\"perTransaction\":{\"basisPoints\":50,\"flatCents\":10}}}}")
                .when().put("/accounts/" + account.accountId() + "/merchants/" + merchant).then().statusCode(200);

        // The update (fees, one confirmation) travels to transaction-service through Kafka first: wait until its
        // merchant view holds it, then out the view's one-second cache (docs/decisions.md §68).
        ServiceDatabases.awaitTrue(() -> ServiceDatabases.count("transaction", "select count(*) from merchant_view "
                + "where merchant_id = ?::uuid and config #>> '{cryptoNetworkConfigs,polygon,USDC,minConfirmsLow}' = '1'",
                merchant) == 1,
                "the merchant's update in transaction-service's view");
        sleep(1_100);
        JsonPath first = create("order-paid", "USDC", "polygon");
        paid = first.getString("transactionId");
        sandboxTransfer("polygon", "USDC", first.getString("address"), "100", 1);
        awaitTransaction(paid, tx -> tx.getInt("status") == 1);

        JsonPath second = create("order-underpaid", "BTC", "bitcoin");
        underpaid = second.getString("transactionId");
        sandboxTransfer("bitcoin", "BTC", second.getString("address"), "0.0012", 1);
        awaitTransaction(underpaid, tx -> tx.getInt("paymentStatus") == 3);

        cancelled = create("order-cancelled", "USDC", "polygon").getString("transactionId");
        given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant).contentType(ContentType.JSON)
                .body("{\"reason\":\"out of stock\"}").when().patch("/transaction/" + cancelled + "/cancel")
                .then().statusCode(200);

        // refunded: 20 USD of the paid order go back (the merchant bears the gas), paid out on the sandbox chain
        refundId = given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant).contentType(ContentType.JSON)
                .body("{\"amount\":20,\"gasFeePayer\":\"merchant\",\"reason\":\"damaged\"}")
                .when().post("/account/" + account.accountId() + "/transaction/" + paid + "/refund")
                .then().statusCode(201).extract().path("[0].refundID");
        awaitTransaction(paid, tx -> Integer.valueOf(2).equals(tx.get("refunds[0].status")));
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"polygon\",\"count\":1}").when().post("/sandbox/chain/blocks")
                .then().statusCode(200);
        awaitTransaction(paid, tx -> Integer.valueOf(1).equals(tx.get("refunds[0].status")));

        // the reporting store catches up from the topics
        awaitReport(() -> apiKey(account).get("/accounts/" + account.accountId() + "/transactions"), page -> page.getInt("total") == 3
                && page.getList("transactions.status").containsAll(List.of(1, 0, -2))
                && page.getList("transactions.paymentStatus").contains(3));
        awaitReport(() -> apiKey(account).get("/accounts/" + account.accountId() + "/transactions/" + paid),
                tx -> Integer.valueOf(1).equals(tx.get("refunds[0].status")));
    }

    @Test
    @Order(1)
    void theListingShowsEveryFlowWithItsPaymentDetail() {
        JsonPath page = report(account, "transactions");
        assertEquals(List.of(cancelled, underpaid, paid), page.getList("transactions.transactionID"));
        JsonPath detail = report(account, "transactions/" + paid);
        assertEquals(1, detail.getInt("status"));
        assertEquals(1, detail.getInt("paymentStatus"));
        assertDecimal("100", detail.getObject("receivedUSD", BigDecimal.class));
        assertEquals("order-paid", detail.getString("referenceNumber"));
        assertEquals("POL", detail.getString("payments[0].gasFeeUnits"));
        assertEquals("USDC", detail.getString("payments[0].cryptoAsset"));
        assertEquals(false, detail.getBoolean("compliance.kycTriggered"));
        assertEquals(1, detail.getInt("payments[0].status"));
        assertTrue(detail.getString("payments[0].completedAt") != null, detail.prettify());
        assertDecimal("2.80", detail.getObject("fees.mdrUSD", BigDecimal.class));
        assertDecimal("0.60", detail.getObject("fees.platformUSD", BigDecimal.class));
        JsonPath under = report(account, "transactions/" + underpaid);
        assertDecimal("60", under.getObject("receivedUSD", BigDecimal.class));
        assertEquals("BTC", under.getString("payments[0].gasFeeUnits"));
        assertEquals("out of stock", report(account, "transactions/" + cancelled).getString("cancellationReason"));
    }

    @Test
    @Order(2)
    void everyFilterAndThePaginationEdges() {
        assertEquals(List.of(paid), ids(report(account, "transactions", "statuses", 1)));
        assertEquals(List.of(cancelled, paid), ids(report(account, "transactions", "statuses", 1, "statuses", -2)));
        assertEquals(List.of(underpaid), ids(report(account, "transactions", "paymentStatuses", 3)));
        assertEquals(List.of(underpaid), ids(report(account, "transactions", "referenceNumber", "order-underpaid")));
        assertEquals(3, report(account, "transactions", "merchantID", merchant).getInt("total"));
        assertEquals(3, report(account, "transactions", "currency", "USD").getInt("total"));
        assertEquals(0, report(account, "transactions", "currency", "EUR").getInt("total"));
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        assertEquals(3, report(account, "transactions", "fromDate", today, "toDate", today).getInt("total"));
        assertEquals(0, report(account, "transactions", "toDate", LocalDate.now(ZoneOffset.UTC).minusDays(1)
                .toString()).getInt("total"));
        assertEquals(List.of(underpaid), ids(report(account, "transactions", "limit", 1, "offset", 1)));
        JsonPath past = report(account, "transactions", "limit", 1, "offset", 3);
        assertEquals(3, past.getInt("total"));
        assertEquals(List.of(), past.getList("transactions"));
        apiKey(account).queryParam("limit", 0).get("/accounts/" + account.accountId() + "/transactions")
                .then().statusCode(400).body("errors.field", hasItem("limit"));
        apiKey(account).queryParam("fromDate", "tomorrow").get("/accounts/" + account.accountId() + "/transactions")
                .then().statusCode(400).body("errors.field", hasItem("fromDate"));
    }

    @Test
    @Order(3)
    void theFiguresUseTheSuccessEventsTerms() {
        JsonPath summary = report(account, "reporting/summary");
        assertDecimal("100", summary.getObject("totalVolumeUSD", BigDecimal.class));
        assertDecimal("3.40", summary.getObject("totalFeesUSD", BigDecimal.class));
        // 100 received, 3.40 of deducted fees, 20 refunded and completed in the open period
        assertDecimal("76.60", summary.getObject("pendingPayoutsUSD", BigDecimal.class));
        JsonPath settlements = report(account, "reporting/settlements");
        assertEquals("daily", settlements.getString("settlementFrequency"));
        assertEquals(1, settlements.getInt("total"));
        assertEquals("open", settlements.getString("settlements[0].status"));
        assertEquals(1, settlements.getInt("settlements[0].refundCount"));
        assertDecimal("20", settlements.getObject("settlements[0].refundsUSD", BigDecimal.class));
        assertDecimal("76.60", settlements.getObject("settlements[0].payoutUSD", BigDecimal.class));
        JsonPath detail = report(account, "transactions/" + paid);
        assertEquals(refundId, detail.getString("refunds[0].refundID"));
        assertEquals("merchant", detail.getString("refunds[0].gasFeePayer"));
        assertDecimal("20", detail.getObject("refunds[0].amountUSD", BigDecimal.class));
        assertDecimal("0", report(account, "reporting/summary", "merchantID", java.util.UUID.randomUUID().toString())
                .getObject("totalVolumeUSD", BigDecimal.class));
    }

    @Test
    @Order(4)
    void theCsvExportStreamsEveryRow() {
        String csv = apiKey(account).accept("text/csv").queryParam("limit", 1)
                .get("/accounts/" + account.accountId() + "/transactions").then().statusCode(200)
                .contentType("text/csv").extract().asString();
        String[] lines = csv.split("\r\n");
        assertEquals(4, lines.length, csv);
        assertTrue(lines[0].startsWith("transactionID,accountID,merchantID"), lines[0]);
        assertTrue(lines[3].startsWith(paid + ","), lines[3]);
    }

    @Test
    @Order(5)
    void otherAccountsNeverSeeTheData() {
        apiKey(stranger).get("/accounts/" + account.accountId() + "/transactions").then().statusCode(403)
                .body("code", equalTo("forbidden"));
        apiKey(stranger).get("/accounts/" + account.accountId() + "/reporting/summary").then().statusCode(403);
        apiKey(stranger).get("/accounts/" + stranger.accountId() + "/transactions/" + paid).then().statusCode(404);
        assertEquals(0, report(stranger, "transactions").getInt("total"));
        assertDecimal("0", report(stranger, "reporting/summary").getObject("totalVolumeUSD", BigDecimal.class));
        String readOnly = account.newKey("api", "read_only", null);
        awaitReport(() -> given().header("X-Api-Key", readOnly).get("/accounts/" + account.accountId()
                + "/transactions"), page -> page.getInt("total") == 3);
    }

    // ----------------------------------------------------------------------------------------------- helpers

    private static RequestSpecification apiKey(SandboxAccount who) {
        return given().header("X-Api-Key", who.apiKey());
    }

    private static JsonPath report(SandboxAccount who, String path, Object... parameters) {
        RequestSpecification request = apiKey(who);
        for (int i = 0; i < parameters.length; i += 2) {
            request.queryParam(parameters[i].toString(), parameters[i + 1]);
        }
        return request.get("/accounts/" + who.accountId() + "/" + path).then().statusCode(200).extract().jsonPath();
    }

    private static List<String> ids(JsonPath page) {
        return page.getList("transactions.transactionID");
    }

    private static JsonPath create(String reference, String asset, String network) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            Response response = given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                    .contentType(ContentType.JSON)
                    .body("{\"amount\":100,\"amountCurrency\":\"USD\",\"asset\":\"" + asset + "\",\"network\":\""
                            + network + "\",\"referenceNumber\":\"" + reference + "\"}")
                    .when().post("/transaction");
            if (response.statusCode() == 201) {
                return response.jsonPath();
            }
            assertTrue(Instant.now().isBefore(deadline), "no transaction within 30 s: " + response.asString());
            sleep(200);
        }
    }

    private static void sandboxTransfer(String network, String asset, String to, String amount, int confirmations) {
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"" + network + "\",\"asset\":\"" + asset + "\",\"toAddress\":\"" + to
                        + "\",\"amount\":\"" + amount + "\",\"confirmations\":" + confirmations + "}")
                .when().post("/sandbox/chain/transfers").then().statusCode(201);
    }

    private static void awaitTransaction(String id, Predicate<JsonPath> condition) {
        awaitReport(() -> given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                .get("/transaction/" + id), condition);
    }

    private static void awaitReport(java.util.function.Supplier<Response> call, Predicate<JsonPath> condition) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        String last = "nothing";
        while (Instant.now().isBefore(deadline)) {
            Response response = call.get();
            last = response.statusCode() + " " + response.asString();
            if (response.statusCode() == 200 && condition.test(response.jsonPath())) {
                return;
            }
            sleep(200);
        }
        throw new AssertionError("not reached within 30 s; last answer " + last);
    }

    private static void assertDecimal(String expected, BigDecimal actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(actual), "expected " + expected + " but was " + actual);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
