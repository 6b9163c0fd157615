package dev.cryptopay.transaction.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.BillingRequest;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.Topics;
import dev.cryptopay.support.outbox.OutboxEvent;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.service.TestConfigurations;
import dev.cryptopay.transaction.service.TransactionEvents;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

@QuarkusTest
class BillingRequestConsumerTest {

    @Inject
    BillingRequestConsumer consumer;

    @Inject
    MerchantViewConsumer merchants;

    @Inject
    TransactionEvents transactionEvents;

    @Inject
    ObjectMapper mapper;

    @Inject
    EntityManager em;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void opensTheTransactionUnderTheRequestedIdOnceHoweverOftenItArrives() {
        MerchantConfiguration merchant = merchant();
        UUID id = UUID.randomUUID();
        String paymentId = UUID.randomUUID().toString();
        CloudEvent request = request(new BillingRequest(id.toString(), merchant.accountId(), merchant.merchantId(),
                new BigDecimal("25"), "USD", "BTC", "bitcoin", paymentId, "Monthly plan", "payer@example.com"));

        consumer.onBillingEvent(request.toJson());
        consumer.onBillingEvent(request.toJson());
        // The same transaction asked for again under a new event id creates nothing either.
        consumer.onBillingEvent(request(new BillingRequest(id.toString(), merchant.accountId(), merchant.merchantId(),
                new BigDecimal("25"), "USD", "BTC", "bitcoin", paymentId, null, null)).toJson());

        QuarkusTransaction.requiringNew().run(() -> {
            Transaction tx = Transaction.findById(id);
            assertNotNull(tx, "the transaction exists under the requested id");
            assertEquals(0, tx.status);
            assertEquals(paymentId, tx.referenceNumber);
            assertEquals("Monthly plan", tx.descriptor);
            assertEquals(0, new BigDecimal("25.00").compareTo(tx.totalLocal));
            assertEquals(UUID.fromString(merchant.merchantId()), tx.merchantId);
            assertEquals(1, PaymentRequest.ofTransaction(id).size());
        });
        List<OutboxEvent> events = outbox(id.toString());
        assertEquals(List.of(EventTypes.TRANSACTION_CREATED, EventTypes.TRANSACTION_CREATED),
                events.stream().map(e -> e.eventType).toList());
        assertEquals(List.of(Topics.TRANSACTIONS, Topics.BILLING), events.stream().map(e -> e.topic).toList(),
                "a billing transaction's event goes to the public stream and to the billing topic (decisions §109)");
        assertSameEventUnderItsOwnId(events.get(0), events.get(1), 1);
    }

    @Test
    void everyLaterEventOfABillingTransactionGoesToTheBillingTopicToo() {
        MerchantConfiguration merchant = merchant();
        UUID id = UUID.randomUUID();
        consumer.onBillingEvent(request(new BillingRequest(id.toString(), merchant.accountId(), merchant.merchantId(),
                new BigDecimal("12.50"), "USD", "BTC", "bitcoin", "p-later-events", null, null)).toJson());
        assertTrue(QuarkusTransaction.requiringNew().call(() -> Transaction.<Transaction>findById(id).billing));

        QuarkusTransaction.requiringNew().run(() -> transactionEvents.publish(EventTypes.TRANSACTION_EXPIRED,
                Transaction.<Transaction>findById(id)));

        List<OutboxEvent> events = outbox(id.toString());
        assertEquals(List.of(Topics.TRANSACTIONS, Topics.BILLING, Topics.TRANSACTIONS, Topics.BILLING),
                events.stream().map(e -> e.topic).toList());
        assertEquals(EventTypes.TRANSACTION_EXPIRED, events.get(3).eventType);
        assertSameEventUnderItsOwnId(events.get(2), events.get(3), 2);
    }

    /** The copy on the billing topic: the public event's type, subject and data (with {@code version}), its own id. */
    private static void assertSameEventUnderItsOwnId(OutboxEvent published, OutboxEvent copy, int version) {
        CloudEvent original = CloudEvent.parse(published.payload);
        CloudEvent copied = CloudEvent.parse(copy.payload);
        assertNotEquals(original.id(), copied.id(), "each outbox row is its own event");
        assertEquals(original.type(), copied.type());
        assertEquals(original.subject(), copied.subject());
        assertEquals(published.messageKey, copy.messageKey);
        assertEquals(original.data(), copied.data());
        assertEquals(version, copied.data().get("version").asInt());
    }

    @Test
    void aRequestThatCanNeverSucceedIsRejectedOnTheBillingTopic() throws Exception {
        MerchantConfiguration merchant = merchant();
        UUID unaccepted = UUID.randomUUID();
        consumer.onBillingEvent(request(new BillingRequest(unaccepted.toString(), merchant.accountId(),
                merchant.merchantId(), BigDecimal.TEN, "USD", "USDT", "tron", "p-1", null, null)).toJson());
        UUID otherAccount = UUID.randomUUID();
        consumer.onBillingEvent(request(new BillingRequest(otherAccount.toString(), UUID.randomUUID().toString(),
                merchant.merchantId(), BigDecimal.TEN, "USD", "BTC", "bitcoin", "p-2", null, null)).toJson());
        UUID negative = UUID.randomUUID();
        consumer.onBillingEvent(request(new BillingRequest(negative.toString(), merchant.accountId(),
                merchant.merchantId(), new BigDecimal("-1"), "USD", "BTC", "bitcoin", "p-3", null, null)).toJson());

        assertRejected(unaccepted, "validation_failed");
        assertRejected(otherAccount, "merchant_unknown");
        assertRejected(negative, "validation_failed");
    }

    /**
     * subscription-service gives an attempt up when its transaction is not opened in time; a request that arrives
     * later (this service was down, or lagging) must not open a transaction whose payment nobody would credit.
     */
    @Test
    void aRequestOlderThanItsOpenWithinIsRejectedAndAYoungerOneOpened() {
        MerchantConfiguration merchant = merchant();
        UUID late = UUID.randomUUID();
        UUID inTime = UUID.randomUUID();
        String anHourAgo = Instant.now().minus(Duration.ofMinutes(60)).toString();

        consumer.onBillingEvent(at(anHourAgo, request(new BillingRequest(late.toString(), merchant.accountId(),
                merchant.merchantId(), BigDecimal.TEN, "USD", "BTC", "bitcoin", "p-late", null, null, "PT50M")))
                .toJson());
        consumer.onBillingEvent(at(anHourAgo, request(new BillingRequest(inTime.toString(), merchant.accountId(),
                merchant.merchantId(), BigDecimal.TEN, "USD", "BTC", "bitcoin", "p-in-time", null, null, "PT70M")))
                .toJson());

        assertRejected(late, "request_expired");
        assertNotNull(QuarkusTransaction.requiringNew().call(() -> Transaction.findById(inTime)),
                "opened: within its 70 minutes");
    }

    private static CloudEvent at(String time, CloudEvent event) {
        return new CloudEvent(event.id(), event.source(), event.type(), event.specversion(), time, event.subject(),
                event.datacontenttype(), event.data());
    }

    @Test
    void aDisabledMerchantIsRejected() throws Exception {
        MerchantConfiguration merchant = merchant(c -> c.status(MerchantConfiguration.DISABLED));
        UUID id = UUID.randomUUID();
        consumer.onBillingEvent(request(new BillingRequest(id.toString(), merchant.accountId(), merchant.merchantId(),
                BigDecimal.TEN, "USD", "BTC", "bitcoin", "p-4", null, null)).toJson());
        assertRejected(id, "merchant_not_enabled");
    }

    @Test
    void aRequestForAMerchantNotYetInTheViewWaitsAndIsOpenedOnRetry() {
        MerchantConfiguration later = TestConfigurations.merchant(c -> c.allowedCrypto("BTC"));
        UUID id = UUID.randomUUID();
        consumer.onBillingEvent(request(new BillingRequest(id.toString(), later.accountId(), later.merchantId(),
                BigDecimal.TEN, "USD", "BTC", "bitcoin", "p-later", null, null)).toJson());
        assertEquals(1L, parked(id), "parked, and the consumer went on");
        assertTrue(QuarkusTransaction.requiringNew().call(() -> Transaction.findById(id) == null));

        CloudEvent arrives = CloudEvent.of("/merchant-service", EventTypes.MERCHANT_UPDATED, later.merchantId(),
                mapper.valueToTree(later));
        QuarkusTransaction.requiringNew().run(() -> merchants.apply(arrives.toJson()));
        QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery(
                "update billing_retry set next_attempt_at = now() where transaction_id = :id")
                .setParameter("id", id).executeUpdate());
        // other parked requests may be due first (and the scheduled job may hold this one): retry until it is done
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (parked(id) > 0 && Instant.now().isBefore(deadline)) {
            consumer.retry();
        }
        assertEquals(0L, parked(id));
        assertEquals("p-later", QuarkusTransaction.requiringNew()
                .call(() -> Transaction.<Transaction>findById(id).referenceNumber));
    }

    @Test
    void aBillingRequestOnKafkaBecomesATransaction() throws Exception {
        MerchantConfiguration merchant = merchant();
        UUID id = UUID.randomUUID();
        CloudEvent request = request(new BillingRequest(id.toString(), merchant.accountId(), merchant.merchantId(),
                new BigDecimal("9.99"), "USD", "ETH", "base", "p-kafka", null, null));
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(Topics.BILLING, id.toString(), request.toJson())).get();
        }
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        Transaction tx = null;
        while (tx == null && Instant.now().isBefore(deadline)) {
            tx = QuarkusTransaction.requiringNew().call(() -> Transaction.<Transaction>findById(id));
            if (tx == null) {
                Thread.sleep(100);
            }
        }
        assertNotNull(tx, "the consumer opened the transaction from the billing topic");
        assertEquals("p-kafka", tx.referenceNumber);
    }

    private long parked(UUID transactionId) {
        return QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "select count(*) from billing_retry where transaction_id = :id").setParameter("id", transactionId)
                .getSingleResult()).longValue());
    }

    private void assertRejected(UUID transactionId, String code) {
        List<OutboxEvent> events = outbox(transactionId.toString());
        assertEquals(1, events.size(), "one rejection for " + transactionId);
        OutboxEvent rejection = events.get(0);
        assertEquals(Topics.BILLING, rejection.topic);
        assertEquals(EventTypes.BILLING_TRANSACTION_REJECTED, rejection.eventType);
        JsonNode data = CloudEvent.parse(rejection.payload).data();
        assertEquals(transactionId.toString(), data.get("transactionId").asText());
        assertEquals(code, data.get("code").asText());
        assertTrue(QuarkusTransaction.requiringNew().call(() -> Transaction.findById(transactionId) == null),
                "nothing was created");
    }

    private MerchantConfiguration merchant() {
        return merchant(c -> c);
    }

    private MerchantConfiguration merchant(java.util.function.UnaryOperator<TestConfigurations.Builder> changes) {
        MerchantConfiguration config = TestConfigurations.merchant(c -> changes.apply(c.allowedCrypto("BTC", "ETH")));
        CloudEvent event = CloudEvent.of("/merchant-service", EventTypes.MERCHANT_UPDATED, config.merchantId(),
                mapper.valueToTree(config));
        QuarkusTransaction.requiringNew().run(() -> merchants.apply(event.toJson()));
        return config;
    }

    private CloudEvent request(BillingRequest request) {
        return CloudEvent.of("/subscription-service", EventTypes.BILLING_TRANSACTION_REQUESTED,
                request.transactionId(), mapper.valueToTree(request));
    }

    private List<OutboxEvent> outbox(String key) {
        return QuarkusTransaction.requiringNew().call(() -> em
                .createQuery("from OutboxEvent e where e.messageKey = ?1 order by e.seq", OutboxEvent.class)
                .setParameter(1, key).getResultList());
    }
}
