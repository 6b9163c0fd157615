package dev.cryptopay.systemtests.subscriptions;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookReceiver;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Recurring billing across the running services, through the gateway: subscription-service bills, transaction-service
 * opens the billing transaction (internal.billing.v1), the customer pays on the sandbox chain, payment detection
 * confirms it, and the transaction events move the subscription payment and the subscription; webhooks of the
 * subscription types are delivered. Time moves with subscription-service's sandbox clock control, never by sleeping
 * for days; only the few seconds of a short QR lifetime pass for real.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SubscriptionBillingIT {

    private static SandboxAccount account;
    private static String merchant;
    private static String hastyMerchant;
    private static WebhookReceiver receiver;
    private static GreenMail smtp;

    @BeforeAll
    static void setUp() throws Exception {
        smtp = new GreenMail(new ServerSetup(Suite.SMTP_PORT, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        Suite suite = Suite.throughGateway();
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"USDC\",\"usd\":\"1\"}]}")
                .when().put("/operator/rates").then().statusCode(200);
        account = SandboxAccount.create("Subscriptions Ltd");
        merchant = account.newMerchant(merchantBody("Monthly Shop", 900));
        hastyMerchant = account.newMerchant(merchantBody("Hasty Monthly Shop", 3));
        receiver = WebhookReceiver.answering(200);
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"name\":\"subs\",\"url\":\"" + receiver.url() + "\",\"events\":[\"subscription.created\","
                        + "\"subscription.paused\",\"subscription.resumed\",\"subscription.canceled\","
                        + "\"subscription.payment_failed\",\"subscription_payment.paid\"]}")
                .when().post("/accounts/" + account.accountId() + "/webhooks").then().statusCode(201);
    }

    @AfterAll
    static void tearDown() {
        if (receiver != null) {
            receiver.close();
        }
        if (smtp != null) {
            smtp.stop();
        }
    }

    /** USDC on polygon, one confirmation, QR codes (and so billing transactions) living {@code qrSeconds}. */
    private static String merchantBody(String name, int qrSeconds) {
        return "{\"name\":\"" + name + "\",\"address1\":\"1 Main St\",\"city\":\"Berlin\",\"region\":\"BE\","
                + "\"country\":\"DE\",\"allowedCrypto\":\"USDC\",\"cryptoNetworkConfigs\":{\"polygon\":"
                + "{\"cryptoAssetConfigs\":{\"USDC\":{\"minConfirmsLow\":1,\"minConfirmsHigh\":1,"
                + "\"qrExpirationSeconds\":" + qrSeconds + "}}}}}";
    }

    @Test
    @Order(1)
    void aSubscriptionIsBilledPaidOnTheSandboxChainAndBilledAgainAMonthLater() {
        String plan = plan(merchant, "10");
        JsonPath created = subscribe(plan, "monthly@example.com");
        String id = created.getString("id");
        assertEquals("CREATED", created.getString("status"));
        Instant anchor = Instant.parse(created.getString("nextBillingAt"));

        JsonPath attempt = awaitAttempt(id, 0, a -> a.get("address") != null);
        assertEquals("USDC", attempt.getString("assetSymbol"));
        assertEquals("polygon", attempt.getString("network"));
        assertEquals(0, new BigDecimal("10").compareTo(new BigDecimal(attempt.getString("amount"))));
        String paymentId = payments(id).getString("payments[0].id");
        JsonPath transaction = given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                .when().get("/transaction/" + attempt.getString("id")).then().statusCode(200).extract().jsonPath();
        assertEquals(paymentId, transaction.getString("referenceNumber"));

        pay(attempt.getString("address"), "10");
        JsonPath active = await(() -> subscription(id), s -> "ACTIVE".equals(s.getString("status")));
        assertEquals(anchor, Instant.parse(active.getString("lastBillingAt")));
        Instant next = LocalDateTime.ofInstant(anchor, ZoneOffset.UTC).plusMonths(1).toInstant(ZoneOffset.UTC);
        assertEquals(next, Instant.parse(active.getString("nextBillingAt")));
        JsonPath paid = payments(id);
        assertEquals("PAID", paid.getString("payments[0].status"));
        assertEquals("PAID", paid.getString("payments[0].payments[0].result"));
        assertEquals(List.of("ACTIVATED", "CREATED"), events(id));

        SubscriptionClock.advance(Duration.between(SubscriptionClock.now(), next).plusSeconds(5));
        JsonPath billedAgain = await(() -> payments(id), p -> p.getInt("metadata.totalCount") == 2);
        assertEquals(next, Instant.parse(billedAgain.getString("payments[0].billingDate")));
        assertEquals("PENDING", billedAgain.getString("payments[0].status"));

        Map<String, Long> webhooks = awaitWebhooks(id, t -> t.containsKey("subscription_payment.paid"));
        assertEquals(1L, webhooks.get("subscription.created"));
        assertEquals(1L, webhooks.get("subscription_payment.paid"));
    }

    @Test
    @Order(2)
    void aFailedCycleEndsInPaymentFailedAndAPaidRetryReactivates() {
        String plan = plan(hastyMerchant, "25");
        String id = subscribe(plan, "late@example.com").getString("id");
        awaitAttempt(id, 0, a -> "FAILED".equals(a.get("result")));
        long[] waits = { 1, 3, 7 };
        for (int i = 0; i < waits.length; i++) {
            SubscriptionClock.advance(Duration.ofDays(waits[i]).plusMinutes(1));
            JsonPath failed = awaitAttempt(id, i + 1, a -> "FAILED".equals(a.get("result")));
            assertEquals("transaction expired", failed.getString("failureReason"));
        }
        JsonPath paymentFailed = await(() -> subscription(id), s -> "PAYMENT_FAILED".equals(s.getString("status")));
        assertEquals("PAYMENT_FAILED", paymentFailed.getString("status"));
        assertEquals("FAILED", payments(id).getString("payments[0].status"));
        assertEquals(List.of("PAYMENT_FAILED", "CREATED"), events(id));

        // the merchant gives customers more time; a retry opens a new attempt, paid this time
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body(merchantBody("Hasty Monthly Shop", 900))
                .when().put("/accounts/" + account.accountId() + "/merchants/" + hastyMerchant).then().statusCode(200);
        awaitLongQrLifetime(hastyMerchant);
        given().header("X-Api-Key", account.apiKey()).when().put("/subscriptionpayments/" + id + "/retry")
                .then().statusCode(204);
        JsonPath retry = awaitAttempt(id, 4, a -> a.get("address") != null);
        pay(retry.getString("address"), "25");
        JsonPath active = await(() -> subscription(id), s -> "ACTIVE".equals(s.getString("status")));
        assertEquals("ACTIVE", active.getString("status"));
        assertEquals("PAID", payments(id).getString("payments[0].status"));
        assertEquals(List.of("ACTIVATED", "PAYMENT_FAILED", "CREATED"), events(id));
        given().header("X-Api-Key", account.apiKey()).when().put("/subscriptionpayments/" + id + "/retry")
                .then().statusCode(409);

        Map<String, Long> webhooks = awaitWebhooks(id, t -> t.containsKey("subscription_payment.paid"));
        assertEquals(1L, webhooks.get("subscription.payment_failed"));
    }

    @Test
    @Order(3)
    void theStateMachineThroughTheGateway() {
        String id = subscribe(plan(merchant, "5"), "moves@example.com").getString("id");
        move(id, "resume", 409);
        move(id, "pause", 200);
        move(id, "pause", 409);
        move(id, "resume", 200);
        move(id, "cancel", 200);
        move(id, "cancel", 409);
        move(id, "resume", 409);
        assertEquals("CANCELED", subscription(id).getString("status"));
        SandboxAccount stranger = SandboxAccount.create("Stranger Ltd");
        given().header("X-Api-Key", stranger.apiKey()).when().get("/subscriptions/" + id).then().statusCode(404);
        given().header("X-Api-Key", stranger.apiKey()).queryParam("accountId", account.accountId())
                .when().get("/subscriptions").then().statusCode(403);
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"accountId\":\"" + account.accountId() + "\",\"amount\":\"10\",\"billingInterval\":\"WEEKLY\"}")
                .when().post("/subscriptionplans").then().statusCode(400);
        // the three moves' webhooks may overtake each other (deliveries of one endpoint run side by side)
        Map<String, Long> webhooks = awaitWebhooks(id, t -> t.keySet().containsAll(
                List.of("subscription.paused", "subscription.resumed", "subscription.canceled")));
        assertEquals(1L, webhooks.get("subscription.paused"));
        assertEquals(1L, webhooks.get("subscription.resumed"));
    }

    /**
     * The account's two e-mail switches, set by the operator in merchant-service, reach subscription-service with the
     * merchant configuration; a failed attempt e-mails the customer and the exhausted attempts the account, through
     * a real SMTP server.
     */
    @Test
    @Order(4)
    void theAccountsSwitchesSendTheCustomerAndTheMerchantTheirEmails() throws Exception {
        given().auth().oauth2(Suite.get().operatorToken()).contentType(ContentType.JSON)
                .body("{\"subscriptionsEmailCustomerOnPaymentFailed\":true,"
                        + "\"subscriptionsEmailMerchantOnPaymentAttemptsExceeded\":true}")
                .when().put("/operator/accounts/" + account.accountId()).then().statusCode(200);
        String mailing = account.newMerchant(merchantBody("Hasty Mail Shop", 3));
        String customer = "mail-" + System.nanoTime() + "@example.com";
        String id = subscribe(plan(mailing, "12"), customer).getString("id");

        awaitAttempt(id, 0, a -> "FAILED".equals(a.get("result")));
        MimeMessage first = awaitMail(m -> recipient(m).equals(customer));
        assertEquals("Your payment to Hasty Mail Shop failed", first.getSubject());
        assertTrue(GreenMailUtil.getBody(first).contains("12 USD"), GreenMailUtil.getBody(first));
        long[] waits = { 1, 3, 7 };
        for (int i = 0; i < waits.length; i++) {
            SubscriptionClock.advance(Duration.ofDays(waits[i]).plusMinutes(1));
            awaitAttempt(id, i + 1, a -> "FAILED".equals(a.get("result")));
        }
        MimeMessage notice = awaitMail(m -> recipient(m).equals("it@example.com")
                && GreenMailUtil.getBody(m).contains(id));
        assertEquals("Subscription payment failed after 4 attempts", notice.getSubject());
        awaitMail(m -> recipient(m).equals(customer) && GreenMailUtil.getBody(m).contains("No further attempt"));
    }

    private static String recipient(MimeMessage message) {
        try {
            return message.getRecipients(Message.RecipientType.TO)[0].toString();
        } catch (Exception e) {
            return "";
        }
    }

    private static MimeMessage awaitMail(Predicate<MimeMessage> match) {
        return await(() -> Arrays.stream(smtp.getReceivedMessages()).filter(match).findFirst().orElse(null),
                java.util.Objects::nonNull);
    }

    private static void move(String id, String action, int status) {
        var request = given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"reason\":\"it " + action + "\"}");
        Response response = "cancel".equals(action) ? request.when().delete("/subscriptions/" + id)
                : request.when().put("/subscriptions/" + id + "/" + action);
        response.then().statusCode(status);
    }

    /** A plan of {@code merchantId}; retried while the new merchant travels to subscription-service. */
    private static String plan(String merchantId, String amount) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            Response response = given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                    .body("{\"accountId\":\"" + account.accountId() + "\",\"merchantId\":\"" + merchantId
                            + "\",\"planName\":\"Monthly\",\"amount\":\"" + amount + "\",\"billingInterval\":\"MONTHLY\"}")
                    .when().post("/subscriptionplans");
            if (response.statusCode() == 201) {
                return response.jsonPath().getString("id");
            }
            assertTrue(Instant.now().isBefore(deadline), "no plan within 30 s: " + response.asString());
            sleep(200);
        }
    }

    private static JsonPath subscribe(String plan, String email) {
        return given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"planId\":\"" + plan + "\",\"customerEmail\":\"" + email + "\",\"walletAddress\":\"0xpayer\","
                        + "\"asset\":\"USDC\",\"network\":\"polygon\",\"billingInterval\":\"MONTHLY\"}")
                .when().post("/subscriptions").then().statusCode(201).extract().jsonPath();
    }

    private static JsonPath subscription(String id) {
        return given().header("X-Api-Key", account.apiKey()).when().get("/subscriptions/" + id)
                .then().statusCode(200).extract().jsonPath();
    }

    private static JsonPath payments(String id) {
        return given().header("X-Api-Key", account.apiKey()).queryParam("subscriptionId", id)
                .when().get("/subscriptionpayments").then().statusCode(200).extract().jsonPath();
    }

    private static List<String> events(String id) {
        return given().header("X-Api-Key", account.apiKey()).when().get("/subscriptions/" + id + "/events")
                .then().statusCode(200).extract().jsonPath().getList("events.type");
    }

    /** Attempt {@code index} (0 = the first) of the subscription's newest payment, once {@code condition} holds. */
    private static JsonPath awaitAttempt(String id, int index, Predicate<Map<String, Object>> condition) {
        JsonPath payments = await(() -> payments(id), p -> {
            List<Map<String, Object>> attempts = p.getList("payments[0].payments");
            return attempts != null && attempts.size() > index && condition.test(attempts.get(index));
        });
        return new JsonPath(payments.prettify()).setRootPath("payments[0].payments[" + index + "]");
    }

    private static void pay(String address, String amount) {
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"polygon\",\"asset\":\"USDC\",\"toAddress\":\"" + address + "\",\"amount\":\""
                        + amount + "\",\"confirmations\":1}")
                .when().post("/sandbox/chain/transfers").then().statusCode(201);
    }

    /** Waits until transaction-service quotes the merchant's new QR lifetime (its merchant view caught up). */
    private static void awaitLongQrLifetime(String merchantId) {
        await(() -> {
            String tx = given().header("X-Api-Key", account.apiKey()).header("X-MID", merchantId)
                    .contentType(ContentType.JSON)
                    .body("{\"amount\":1,\"amountCurrency\":\"USD\",\"asset\":\"USDC\",\"network\":\"polygon\"}")
                    .when().post("/transaction").then().statusCode(201).extract().path("transactionId");
            return given().header("X-Api-Key", account.apiKey()).header("X-MID", merchantId)
                    .when().get("/transaction/" + tx).then().statusCode(200).extract().jsonPath();
        }, tx -> Instant.parse(tx.getString("expiration")).isAfter(Instant.now().plusSeconds(600)));
    }

    /** The webhook deliveries for subscription {@code id}, counted by type, once {@code until} holds. */
    private static Map<String, Long> awaitWebhooks(String id, Predicate<Map<String, Long>> until) {
        Instant deadline = Instant.now().plusSeconds(30);
        Map<String, Long> types = Map.of();
        while (Instant.now().isBefore(deadline)) {
            types = receiver.requests().stream()
                    .map(r -> new JsonPath(r.body()))
                    .filter(body -> id.equals(body.getString("data.id")) || id.equals(body.getString("data.subscriptionId")))
                    .collect(Collectors.groupingBy(body -> body.getString("type"), Collectors.counting()));
            if (until.test(types)) {
                return types;
            }
            sleep(200);
        }
        throw new AssertionError("webhooks for " + id + " not delivered within 30 s: " + types);
    }

    private static <T> T await(java.util.function.Supplier<T> read, Predicate<T> condition) {
        Instant deadline = Instant.now().plusSeconds(60);
        T last = null;
        while (Instant.now().isBefore(deadline)) {
            last = read.get();
            if (condition.test(last)) {
                return last;
            }
            sleep(200);
        }
        throw new AssertionError("condition not reached within 60 s; last: "
                + (last instanceof JsonPath json ? json.prettify() : last));
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
