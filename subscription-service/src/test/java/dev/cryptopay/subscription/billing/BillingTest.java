package dev.cryptopay.subscription.billing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.BillingRejection;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.Topics;
import dev.cryptopay.subscription.domain.BillingCalendar;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.domain.BillingInterval;
import dev.cryptopay.subscription.messaging.BillingRejectionConsumer;
import dev.cryptopay.subscription.testing.Api;
import dev.cryptopay.subscription.testing.Fixtures;
import dev.cryptopay.subscription.testing.GreenMailResource;
import dev.cryptopay.support.testing.LockWaits;
import dev.cryptopay.support.testing.TestTokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The billing job, the transaction events that move payments, and dunning — on the service's injectable clock, with
 * the transaction events fed to the consumer exactly as transaction-service publishes them (fields used here).
 */
@QuarkusTest
@QuarkusTestResource(GreenMailResource.class)
class BillingTest {

    @Inject
    BillingJob job;

    @Inject
    BillingClock clock;

    @Inject
    EntityManager em;

    @Inject
    BillingRejectionConsumer rejections;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    private record Sub(UUID account, String id) {
    }

    private Sub newSubscription(String amount) {
        UUID account = UUID.randomUUID();
        String plan = Fixtures.plan(account, Fixtures.merchant(account), amount, "MONTHLY").getString("id");
        return new Sub(account, Fixtures.subscription(account, plan, "payer@example.com").getString("id"));
    }

    private String openAttempt(Sub s) {
        JsonPath payments = Api.payments(s.account(), s.id());
        List<String> results = payments.getList("payments[0].payments.result");
        assertEquals("REQUESTED", results.get(results.size() - 1), payments.prettify());
        return payments.getString("payments[0].payments[" + (results.size() - 1) + "].id");
    }

    private JsonNode billingRequest(String attemptId) {
        List<?> rows = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select payload from outbox_event where message_key = ?1 and topic = 'internal.billing.v1'")
                .setParameter(1, attemptId).getResultList());
        assertEquals(1, rows.size(), "one billing request for attempt " + attemptId);
        CloudEvent event = CloudEvent.parse((String) rows.get(0));
        assertEquals(EventTypes.BILLING_TRANSACTION_REQUESTED, event.type());
        return event.data();
    }

    private List<?> subscriptionEventTypes(String key) {
        return QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select event_type from outbox_event where message_key = ?1 and topic = 'payments.subscriptions.v1' "
                        + "order by seq").setParameter(1, key).getResultList());
    }

    private static void deliver(String type, String attempt, long version, int status, int paymentStatus,
            String total, String received) {
        Fixtures.deliverTransactionEvent(Fixtures.transactionEvent(type, attempt, version, status, paymentStatus,
                total, received, "0xaddress" + attempt.substring(0, 8), total, paymentStatus == 0 ? null : "0xhash"));
    }

    private void fail(String attempt, long version) {
        deliver(EventTypes.TRANSACTION_EXPIRED, attempt, version, -1, 0, "10", "0");
    }

    @Test
    void aFullCycleBillsPaysActivatesAndMovesTheCalendarOneMonth() {
        Sub s = newSubscription("10");
        Instant anchor = Instant.parse(Api.subscription(s.account(), s.id()).getString("nextBillingAt"));
        job.runOnce();
        job.runOnce(); // a second pass bills nothing twice
        JsonPath payments = Api.payments(s.account(), s.id());
        assertEquals(1, payments.getInt("metadata.totalCount"));
        assertEquals("PENDING", payments.getString("payments[0].status"));
        assertEquals("10", payments.getString("payments[0].total"));
        assertEquals("10", payments.getString("payments[0].items[0].amount"));
        assertEquals("PLAN", payments.getString("payments[0].items[0].type"));
        assertEquals("USDC", payments.getString("payments[0].payments[0].assetSymbol"));
        assertEquals("polygon", payments.getString("payments[0].payments[0].network"));
        String paymentId = payments.getString("payments[0].id");
        String attempt = openAttempt(s);

        JsonNode request = billingRequest(attempt);
        assertEquals(attempt, request.get("transactionId").asText());
        assertEquals(paymentId, request.get("referenceNumber").asText());
        assertEquals(0, new BigDecimal("10").compareTo(request.get("amount").decimalValue()));
        assertEquals("USD", request.get("currency").asText());
        assertEquals("USDC", request.get("asset").asText());
        assertEquals("polygon", request.get("network").asText());
        assertEquals(s.account().toString(), request.get("accountId").asText());
        assertEquals("payer@example.com", request.get("customerEmail").asText());
        assertEquals("PT50M", request.get("openWithin").asText(), "five sixths of attempt-open-timeout (1h)");

        deliver(EventTypes.TRANSACTION_CREATED, attempt, 1, 0, 0, "10", "0");
        JsonPath pending = Api.payments(s.account(), s.id());
        assertEquals("PENDING", pending.getString("payments[0].payments[0].result"));
        assertEquals("0xaddress" + attempt.substring(0, 8), pending.getString("payments[0].payments[0].address"));
        assertEquals("10", pending.getString("payments[0].payments[0].amount"));
        deliver(EventTypes.TRANSACTION_PAYMENT_DETECTED, attempt, 2, 0, 2, "10", "0");
        assertEquals("CONFIRMING", Api.payments(s.account(), s.id()).getString("payments[0].payments[0].result"));

        String success = Fixtures.transactionEvent(EventTypes.TRANSACTION_SUCCESS, attempt, 3, 1, 1, "10", "10",
                "0xaddress", "10", "0xhash");
        assertTrue(Fixtures.deliverTransactionEvent(success));
        assertFalse(Fixtures.deliverTransactionEvent(success), "a redelivered event is applied once");
        JsonPath paid = Api.payments(s.account(), s.id());
        assertEquals("PAID", paid.getString("payments[0].status"));
        assertEquals("PAID", paid.getString("payments[0].payments[0].result"));
        assertEquals("0xhash", paid.getString("payments[0].payments[0].txnHash"));
        JsonPath sub = Api.subscription(s.account(), s.id());
        assertEquals("ACTIVE", sub.getString("status"));
        assertEquals(anchor, Instant.parse(sub.getString("lastBillingAt")));
        assertEquals(BillingCalendar.date(anchor, BillingInterval.MONTHLY, 1),
                Instant.parse(sub.getString("nextBillingAt")));
        assertEquals(List.of("ACTIVATED", "CREATED"), Api.events(s.account(), s.id()).getList("events.type"));
        assertEquals(List.of("subscription.created", "subscription_payment.paid"), subscriptionEventTypes(s.id()));

        // a stale event (an older version, new event id) changes nothing
        deliver(EventTypes.TRANSACTION_PAYMENT_DETECTED, attempt, 2, 0, 2, "10", "0");
        assertEquals("PAID", Api.payments(s.account(), s.id()).getString("payments[0].payments[0].result"));

        // one month later the next period is billed, at its calendar date
        clock.advance(Duration.between(clock.instant(), BillingCalendar.date(anchor, BillingInterval.MONTHLY, 1))
                .plusSeconds(1));
        job.runOnce();
        JsonPath next = Api.payments(s.account(), s.id());
        assertEquals(2, next.getInt("metadata.totalCount"));
        assertEquals(BillingCalendar.date(anchor, BillingInterval.MONTHLY, 1),
                Instant.parse(next.getString("payments[0].billingDate")));
        assertEquals("PENDING", next.getString("payments[0].status"));
    }

    @Test
    void dunningRetriesOnScheduleThenFailsTheSubscriptionAndARetryThatIsPaidReactivatesIt() {
        Sub failing = newSubscription("10");
        job.runOnce();
        String first = openAttempt(failing);
        deliver(EventTypes.TRANSACTION_CREATED, first, 1, 0, 0, "10", "0");
        fail(first, 2);
        JsonPath afterFirst = Api.payments(failing.account(), failing.id());
        assertEquals("PENDING", afterFirst.getString("payments[0].status"));
        assertEquals("FAILED", afterFirst.getString("payments[0].payments[0].result"));
        assertEquals("transaction expired", afterFirst.getString("payments[0].payments[0].failureReason"));

        job.runOnce(); // the retry is not due before a day
        assertEquals(1, Api.payments(failing.account(), failing.id()).getList("payments[0].payments").size());
        long[] waits = { 1, 3, 7 };
        for (int i = 0; i < waits.length; i++) {
            clock.advance(Duration.ofDays(waits[i]).minusMinutes(1));
            job.runOnce();
            assertEquals(i + 1, Api.payments(failing.account(), failing.id()).getList("payments[0].payments").size(),
                    "no retry before its time");
            clock.advance(Duration.ofMinutes(2));
            job.runOnce();
            String attempt = openAttempt(failing);
            assertEquals(0, new BigDecimal("10").compareTo(billingRequest(attempt).get("amount").decimalValue()));
            assertEquals("CREATED", Api.subscription(failing.account(), failing.id()).getString("status"));
            fail(attempt, 1);
        }
        JsonPath failed = Api.payments(failing.account(), failing.id());
        assertEquals(1, failed.getInt("metadata.totalCount"));
        assertEquals("FAILED", failed.getString("payments[0].status"));
        assertEquals(4, failed.getList("payments[0].payments").size());
        assertEquals("PAYMENT_FAILED", Api.subscription(failing.account(), failing.id()).getString("status"));
        JsonPath events = Api.events(failing.account(), failing.id());
        assertEquals(List.of("PAYMENT_FAILED", "CREATED"), events.getList("events.type"));
        assertTrue(events.getString("events[0].data.reason").contains("failed after 4 attempts"));
        assertEquals(List.of("subscription.created", "subscription.payment_failed"),
                subscriptionEventTypes(failing.id()));
        clock.advance(Duration.ofDays(40));
        job.runOnce();
        assertEquals(1, Api.payments(failing.account(), failing.id()).getInt("metadata.totalCount"),
                "a PAYMENT_FAILED subscription is not billed");

        // a retry opens a new attempt at once; a second retry while it is open is refused
        assertEquals(204, Api.retry(failing.account(), failing.id()));
        assertEquals(409, Api.retry(failing.account(), failing.id()));
        String retry = openAttempt(failing);
        assertEquals("PENDING", Api.payments(failing.account(), failing.id()).getString("payments[0].status"));
        deliver(EventTypes.TRANSACTION_SUCCESS, retry, 3, 1, 1, "10", "10");
        assertEquals("PAID", Api.payments(failing.account(), failing.id()).getString("payments[0].status"));
        assertEquals("ACTIVE", Api.subscription(failing.account(), failing.id()).getString("status"));
        assertEquals("ACTIVATED", Api.events(failing.account(), failing.id()).getString("events[0].type"));
        assertEquals(409, Api.retry(failing.account(), failing.id()), "nothing left to retry");
    }

    /** The API moves from the two states only billing reaches: ACTIVE and PAYMENT_FAILED (others: SubscriptionResourceTest). */
    @Test
    void movesFromActiveAndFromPaymentFailed() {
        Sub active = newSubscription("10");
        Sub failing = newSubscription("10");
        job.runOnce();
        deliver(EventTypes.TRANSACTION_SUCCESS, openAttempt(active), 1, 1, 1, "10", "10");
        for (long wait : new long[] { 1, 3, 7, 0 }) {
            fail(openAttempt(failing), 1);
            clock.advance(Duration.ofDays(wait).plusSeconds(1));
            job.runOnce();
        }
        assertEquals("ACTIVE", Api.subscription(active.account(), active.id()).getString("status"));
        assertEquals("PAYMENT_FAILED", Api.subscription(failing.account(), failing.id()).getString("status"));

        move(active, "resume", 409, null);
        move(active, "pause", 200, "PAUSED");
        move(active, "resume", 200, "ACTIVE"); // paid before: back to ACTIVE
        move(active, "cancel", 200, "CANCELED");
        assertEquals(null, Api.subscription(active.account(), active.id()).getString("nextBillingAt"));

        move(failing, "resume", 409, null);
        move(failing, "pause", 200, "PAUSED");
        move(failing, "resume", 200, "CREATED"); // never paid
        move(failing, "cancel", 200, "CANCELED");
        assertEquals(List.of("CANCELED", "RESUMED", "PAUSED", "PAYMENT_FAILED", "CREATED"),
                Api.events(failing.account(), failing.id()).getList("events.type"));
        assertEquals(List.of("CANCELED", "RESUMED", "PAUSED", "ACTIVATED", "CREATED"),
                Api.events(active.account(), active.id()).getList("events.type"));
        assertEquals(409, Api.retry(failing.account(), failing.id()), "canceled");
    }

    private static void move(Sub s, String action, int status, String expected) {
        var request = given().auth().oauth2(TestTokens.admin(s.account())).contentType(ContentType.JSON).body("{}");
        var response = "cancel".equals(action) ? request.when().delete("/subscriptions/" + s.id())
                : request.when().put("/subscriptions/" + s.id() + "/" + action);
        var then = response.then().statusCode(status);
        if (expected != null) {
            then.body("status", equalTo(expected));
        } else {
            then.body("code", equalTo("invalid_state"));
        }
    }

    @Test
    void dunningIsPerSubscription() {
        UUID account = UUID.randomUUID();
        String plan = Fixtures.plan(account, Fixtures.merchant(account), "10", "MONTHLY").getString("id");
        Sub bad = new Sub(account, Fixtures.subscription(account, plan, "bad@example.com").getString("id"));
        Sub good = new Sub(account, Fixtures.subscription(account, plan, "good@example.com").getString("id"));
        job.runOnce();
        deliver(EventTypes.TRANSACTION_SUCCESS, openAttempt(good), 1, 1, 1, "10", "10");
        for (long wait : new long[] { 1, 3, 7, 0 }) {
            fail(openAttempt(bad), 1);
            clock.advance(Duration.ofDays(wait).plusSeconds(1));
            job.runOnce();
        }
        assertEquals("PAYMENT_FAILED", Api.subscription(account, bad.id()).getString("status"));
        assertEquals("ACTIVE", Api.subscription(account, good.id()).getString("status"));
        assertEquals(List.of("ACTIVATED", "CREATED"), Api.events(account, good.id()).getList("events.type"));
    }

    @Test
    void aPartialPaymentIsPartiallyPaidAndTheRetryAsksForTheRest() {
        Sub s = newSubscription("10");
        job.runOnce();
        String attempt = openAttempt(s);
        deliver(EventTypes.TRANSACTION_CREATED, attempt, 1, 0, 0, "10", "0");
        deliver(EventTypes.TRANSACTION_PAYMENT_DETECTED, attempt, 2, 0, 3, "10", "4");
        JsonPath partial = Api.payments(s.account(), s.id());
        assertEquals("PARTIALLY_PAID", partial.getString("payments[0].status"));
        assertEquals("PARTIALLY_PAID", partial.getString("payments[0].payments[0].result"));
        deliver(EventTypes.TRANSACTION_EXPIRED, attempt, 3, -1, 3, "10", "4");
        JsonPath expired = Api.payments(s.account(), s.id());
        assertEquals("PARTIALLY_PAID", expired.getString("payments[0].status"));
        assertEquals("FAILED", expired.getString("payments[0].payments[0].result"));
        assertEquals(0, new BigDecimal("4").compareTo(new BigDecimal(expired.getString("payments[0].amountPaid"))));
        clock.advance(Duration.ofDays(1).plusSeconds(1));
        job.runOnce();
        assertEquals(0, new BigDecimal("6").compareTo(billingRequest(openAttempt(s)).get("amount").decimalValue()));
    }

    @Test
    void aPausedSubscriptionIsNotBilledAndAResumedOneBillsFromItsNextDueDate() {
        Sub s = newSubscription("10");
        Instant anchor = Instant.parse(Api.subscription(s.account(), s.id()).getString("nextBillingAt"));
        given().auth().oauth2(TestTokens.admin(s.account())).contentType(ContentType.JSON).body("{}")
                .when().put("/subscriptions/" + s.id() + "/pause").then().statusCode(200);
        job.runOnce();
        clock.advance(Duration.ofDays(40));
        job.runOnce();
        assertEquals(0, Api.payments(s.account(), s.id()).getInt("metadata.totalCount"));
        given().auth().oauth2(TestTokens.admin(s.account())).contentType(ContentType.JSON).body("{}")
                .when().put("/subscriptions/" + s.id() + "/resume").then().statusCode(200)
                .body("status", equalTo("CREATED"));
        int period = BillingCalendar.firstPeriodNotBefore(anchor, BillingInterval.MONTHLY, 0, clock.instant());
        assertTrue(period >= 2);
        Instant due = BillingCalendar.date(anchor, BillingInterval.MONTHLY, period);
        assertEquals(due, Instant.parse(Api.subscription(s.account(), s.id()).getString("nextBillingAt")));
        job.runOnce();
        assertEquals(0, Api.payments(s.account(), s.id()).getInt("metadata.totalCount"), "not before its date");
        clock.advance(Duration.between(clock.instant(), due).plusSeconds(1));
        job.runOnce();
        JsonPath billed = Api.payments(s.account(), s.id());
        assertEquals(1, billed.getInt("metadata.totalCount"), "the paused months are never billed");
        assertEquals(due, Instant.parse(billed.getString("payments[0].billingDate")));
    }

    @Test
    void aRejectedBillingRequestFailsTheAttempt() {
        Sub s = newSubscription("10");
        job.runOnce();
        String attempt = openAttempt(s);
        String value = CloudEvent.of("/transaction-service", EventTypes.BILLING_TRANSACTION_REJECTED, attempt,
                new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(new BillingRejection(attempt,
                        "merchant_not_enabled", "The merchant is not enabled."))).toJson();
        assertTrue(QuarkusTransaction.requiringNew().call(() -> rejections.apply(value)));
        JsonPath payments = Api.payments(s.account(), s.id());
        assertEquals("FAILED", payments.getString("payments[0].payments[0].result"));
        assertEquals("rejected: merchant_not_enabled: The merchant is not enabled.",
                payments.getString("payments[0].payments[0].failureReason"));
        assertEquals("PENDING", payments.getString("payments[0].status"));
    }

    @Test
    void anAttemptTransactionServiceNeverOpensTimesOutAsADunningStep() {
        Sub s = newSubscription("10");
        job.runOnce();
        String attempt = openAttempt(s);
        clock.advance(Duration.ofMinutes(59));
        job.runOnce();
        assertEquals("REQUESTED", Api.payments(s.account(), s.id()).getString("payments[0].payments[0].result"));
        clock.advance(Duration.ofMinutes(2));
        assertTrue(job.runOnce().timedOut() >= 1, "the pass times the attempt out");
        JsonPath payments = Api.payments(s.account(), s.id());
        assertEquals(attempt, payments.getString("payments[0].payments[0].id"));
        assertEquals("FAILED", payments.getString("payments[0].payments[0].result"));
        assertTrue(payments.getString("payments[0].payments[0].failureReason").startsWith("transaction_not_opened"));
        assertEquals("PENDING", payments.getString("payments[0].status"));
    }

    /**
     * Each timed-out attempt commits on its own: the job never holds one subscription's locks while it waits for
     * another's, which the consumer of transaction events may hold (a deadlock there would stop its channel).
     */
    @Test
    void attemptsTimeOutOneTransactionEach() throws Exception {
        Sub older = newSubscription("10");
        job.runOnce();
        String olderAttempt = openAttempt(older);
        Sub newer = newSubscription("10");
        job.runOnce();
        String newerAttempt = openAttempt(newer);
        clock.advance(Duration.ofMinutes(61));
        ExecutorService pass = Executors.newSingleThreadExecutor();
        try (Connection consumer = dataSource.getConnection()) {
            consumer.setAutoCommit(false);
            try (PreparedStatement lock = consumer.prepareStatement("select id from subscription where id = ? "
                    + "for update")) {
                lock.setObject(1, UUID.fromString(newer.id()));
                lock.executeQuery().close();
            }
            Future<BillingJob.Pass> running = pass.submit(job::runOnce);
            LockWaits.awaitBlocked(dataSource, running);

            assertEquals(List.of("FAILED"), Api.payments(older.account(), older.id())
                    .getList("payments[0].payments.result"), "the older attempt committed while the job waits");
            consumer.commit();
            assertTrue(running.get(10, TimeUnit.SECONDS).timedOut() >= 2);
        } finally {
            pass.shutdownNow();
        }
        assertEquals(olderAttempt, Api.payments(older.account(), older.id()).getString("payments[0].payments[0].id"));
        JsonPath newerPayments = Api.payments(newer.account(), newer.id());
        assertEquals(newerAttempt, newerPayments.getString("payments[0].payments[0].id"));
        assertEquals("FAILED", newerPayments.getString("payments[0].payments[0].result"));
    }

    @Test
    void aPollOfEventsIsAppliedInOrderAndOnlyForThisServicesAttempts() {
        Sub s = newSubscription("10");
        job.runOnce();
        String attempt = openAttempt(s);
        String success = Fixtures.transactionEvent(EventTypes.TRANSACTION_SUCCESS, attempt, 3, 1, 1, "10", "10",
                "0xaddress", "10", "0xhash");
        List<String> poll = List.of(
                Fixtures.transactionEvent(EventTypes.TRANSACTION_CREATED, UUID.randomUUID().toString(), 1, 0, 0, "5",
                        "0", "0xother", "5", null),
                "not json",
                Fixtures.transactionEvent(EventTypes.TRANSACTION_CREATED, attempt, 1, 0, 0, "10", "0", "0xaddress",
                        "10", null),
                Fixtures.transactionEvent(EventTypes.TRANSACTION_PAYMENT_DETECTED, attempt, 2, 0, 2, "10", "0",
                        "0xaddress", "10", "0xhash"),
                success,
                success);
        assertEquals(3, Fixtures.deliverTransactionEvents(poll), "created, detected and success; not the repeat");
        JsonPath paid = Api.payments(s.account(), s.id());
        assertEquals("PAID", paid.getString("payments[0].payments[0].result"));
        assertEquals("0xhash", paid.getString("payments[0].payments[0].txnHash"));
        assertEquals("ACTIVE", Api.subscription(s.account(), s.id()).getString("status"));
        assertEquals(0, Fixtures.deliverTransactionEvents(poll), "a redelivered poll changes nothing");
        assertEquals(0, Fixtures.deliverTransactionEvents(List.of()));
    }

    @Test
    void theBillingTransactionsEventsArriveOnTheBillingTopic() throws Exception {
        Sub s = newSubscription("10");
        job.runOnce();
        String attempt = openAttempt(s);
        // As transaction-service sends a billing transaction's events (decisions §109): on internal.billing.v1, read
        // by the service's own consumer from the test broker, beside this service's requests on the same topic.
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (String event : List.of(
                    Fixtures.transactionEvent(EventTypes.TRANSACTION_CREATED, attempt, 1, 0, 0, "10", "0",
                            "0xbilling", "10", null),
                    Fixtures.transactionEvent(EventTypes.TRANSACTION_SUCCESS, attempt, 2, 1, 1, "10", "10",
                            "0xbilling", "10", "0xbillinghash"))) {
                producer.send(new ProducerRecord<>(Topics.BILLING, attempt, event)).get();
            }
        }
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        JsonPath payments = Api.payments(s.account(), s.id());
        // Both: the listing reads the payments and then their attempts in two statements, each with its own snapshot,
        // so one answer read while the consumer commits can show the attempt PAID beside its payment still PENDING.
        while (!"PAID".equals(payments.getString("payments[0].payments[0].result"))
                || !"PAID".equals(payments.getString("payments[0].status"))) {
            assertTrue(Instant.now().isBefore(deadline), "not applied from the billing topic: " + payments.prettify());
            Thread.sleep(100);
            payments = Api.payments(s.account(), s.id());
        }
        assertEquals("0xbillinghash", payments.getString("payments[0].payments[0].txnHash"));
        assertEquals("PAID", payments.getString("payments[0].status"));
        assertEquals("ACTIVE", Api.subscription(s.account(), s.id()).getString("status"));
    }

    @Test
    void transactionsOfOthersAreIgnored() {
        assertFalse(Fixtures.deliverTransactionEvent(Fixtures.transactionEvent(EventTypes.TRANSACTION_SUCCESS,
                UUID.randomUUID().toString(), 1, 1, 1, "10", "10", "0x1", "10", "0x2")));
        assertFalse(Fixtures.deliverTransactionEvent("not json"));
    }

    @Test
    void createPaymentBillsTheNextPeriodNowAndRetryAndCreateRefuseWhatTheyCannotDo() {
        Sub s = newSubscription("10");
        String token = TestTokens.admin(s.account());
        assertEquals(409, Api.retry(s.account(), s.id()), "nothing billed yet");
        given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"subscriptionId\":\"" + s.id() + "\"}")
                .when().post("/subscriptionpayments").then().statusCode(201)
                .body("status", equalTo("PENDING")).body("payments", hasSize(0))
                .body("subscriptionId", equalTo(s.id())).body("total", equalTo("10"))
                .body("items[0].amount", equalTo("10"));
        given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"subscriptionId\":\"" + s.id() + "\"}")
                .when().post("/subscriptionpayments").then().statusCode(409).body("code", equalTo("invalid_state"));
        given().auth().oauth2(token).contentType(ContentType.JSON)
                .body("{\"subscriptionId\":\"" + UUID.randomUUID() + "\"}")
                .when().post("/subscriptionpayments").then().statusCode(400).body("errors.field", hasItem("subscriptionId"));
        given().auth().oauth2(token).contentType(ContentType.JSON).body("{}")
                .when().post("/subscriptionpayments").then().statusCode(400);
        job.runOnce();
        assertEquals(1, Api.payments(s.account(), s.id()).getInt("metadata.totalCount"), "one payment per period");
        openAttempt(s);
        assertEquals(404, Api.retry(UUID.randomUUID(), s.id()));
        given().auth().oauth2(token).contentType(ContentType.JSON).body("{}")
                .when().put("/subscriptions/" + s.id() + "/pause").then().statusCode(200);
        assertEquals(409, Api.retry(s.account(), s.id()), "paused");
        String paymentId = Api.payments(s.account(), s.id()).getString("payments[0].id");
        given().auth().oauth2(TestTokens.apiKey(s.account(), "read_only")).when()
                .get("/subscriptionpayments/" + paymentId).then().statusCode(200).body("id", equalTo(paymentId));
        given().auth().oauth2(TestTokens.admin(UUID.randomUUID())).when()
                .get("/subscriptionpayments/" + paymentId).then().statusCode(404);
        given().auth().oauth2(TestTokens.apiKey(s.account(), "read_only")).when()
                .put("/subscriptionpayments/" + s.id() + "/retry").then().statusCode(403);
    }

    @Test
    void paymentListFiltersByStatusTimeAndIdsWithPagination() {
        UUID account = UUID.randomUUID();
        UUID merchant = Fixtures.merchant(account);
        String planA = Fixtures.plan(account, merchant, "10", "MONTHLY").getString("id");
        String planB = Fixtures.plan(account, merchant, "20", "MONTHLY").getString("id");
        long before = clock.instant().getEpochSecond();
        String a = Fixtures.subscription(account, planA, "a@example.com").getString("id");
        job.runOnce();
        long billedA = clock.instant().getEpochSecond();
        clock.advance(Duration.ofSeconds(10));
        long beforeB = clock.instant().getEpochSecond();
        String b = Fixtures.subscription(account, planB, "b@example.com").getString("id");
        job.runOnce();
        deliver(EventTypes.TRANSACTION_SUCCESS, openAttempt(new Sub(account, a)), 1, 1, 1, "10", "10");
        clock.advance(Duration.ofDays(2));
        // read before the creation: read after it, a second that turned in between put it after the payment
        long later = clock.instant().getEpochSecond();
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"subscriptionId\":\"" + a + "\"}").when().post("/subscriptionpayments").then().statusCode(201);
        String token = TestTokens.admin(account);

        given().auth().oauth2(token).when().get("/subscriptionpayments").then().statusCode(200)
                .body("payments.subscriptionId", contains(a, b, a)).body("metadata.totalCount", equalTo(3));
        given().auth().oauth2(token).queryParam("status", "PAID").when().get("/subscriptionpayments")
                .then().body("payments.subscriptionId", contains(a));
        given().auth().oauth2(token).queryParam("status", "PENDING").queryParam("planId", planB)
                .when().get("/subscriptionpayments").then().body("payments.subscriptionId", contains(b));
        given().auth().oauth2(token).queryParam("merchantId", merchant.toString()).queryParam("limit", 2)
                .queryParam("page", 2).when().get("/subscriptionpayments")
                .then().body("payments.subscriptionId", contains(a)).body("metadata.count", equalTo(1));
        given().auth().oauth2(token).queryParam("from", before).queryParam("to", billedA)
                .when().get("/subscriptionpayments").then().body("payments.subscriptionId", contains(a));
        given().auth().oauth2(token).queryParam("from", beforeB).when().get("/subscriptionpayments")
                .then().body("payments.subscriptionId", contains(a, b));
        given().auth().oauth2(token).queryParam("from", later).when().get("/subscriptionpayments")
                .then().body("payments", hasSize(1));
        given().auth().oauth2(token).queryParam("to", before - 1).when().get("/subscriptionpayments")
                .then().body("payments", hasSize(0));
        for (String[] bad : new String[][] { { "from", "yesterday" }, { "to", "1.5" }, { "from", "-1" },
                { "status", "paid" }, { "subscriptionId", "x" }, { "limit", "0" }, { "page", "0" } }) {
            given().auth().oauth2(token).queryParam(bad[0], bad[1]).when().get("/subscriptionpayments")
                    .then().statusCode(400).body("errors.field", hasItem(bad[0]));
        }
        given().auth().oauth2(token).queryParam("accountId", UUID.randomUUID().toString())
                .when().get("/subscriptionpayments").then().statusCode(403);
    }
}
