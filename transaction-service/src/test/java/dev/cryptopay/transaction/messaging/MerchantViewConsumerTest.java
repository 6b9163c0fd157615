package dev.cryptopay.transaction.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.Topics;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.service.MerchantAccess;
import dev.cryptopay.transaction.service.TestConfigurations;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MerchantViewConsumerTest {

    @Inject
    MerchantViewConsumer consumer;

    @Inject
    ObjectMapper mapper;

    @Inject
    MerchantAccess access;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void keepsOnlyTheNewestVersionAndAppliesAnEventOnce() {
        UUID merchant = UUID.randomUUID();
        MerchantConfiguration v2 = TestConfigurations.merchant(c -> c.merchantId(merchant).version(2).externalMID("m-2"));
        MerchantConfiguration v1 = TestConfigurations.merchant(c -> c.merchantId(merchant).version(1)
                .accountId(UUID.fromString(v2.accountId())).status(MerchantConfiguration.DISABLED));
        CloudEvent second = event(v2);
        assertTrue(apply(second));
        assertFalse(apply(second), "a redelivered event is skipped");
        assertFalse(apply(event(v1)), "an older version never overwrites a newer one");
        QuarkusTransaction.requiringNew().run(() -> {
            MerchantView view = MerchantView.findById(merchant);
            assertEquals(2, view.version);
            assertEquals(MerchantConfiguration.ENABLED, view.status);
            assertEquals("m-2", view.externalMID);
            assertEquals(v2.xpubs(), view.config.xpubs());
        });
        MerchantConfiguration v3 = TestConfigurations.merchant(c -> c.merchantId(merchant).version(3)
                .accountId(UUID.fromString(v2.accountId())).status(MerchantConfiguration.DISABLED));
        assertTrue(apply(event(v3)));
        QuarkusTransaction.requiringNew().run(() -> assertEquals(-1, MerchantView.<MerchantView>findById(merchant).status));
    }

    @Test
    void ignoresOtherTypesAndUnreadableData() {
        MerchantConfiguration config = TestConfigurations.merchant(c -> c);
        assertFalse(apply(CloudEvent.of("/x", EventTypes.KEY_UPDATED, config.merchantId(), mapper.valueToTree(config))));
        assertFalse(apply(CloudEvent.of("/x", EventTypes.MERCHANT_UPDATED, "m", mapper.createObjectNode().put("merchantId", "nope"))));
        consumer.onMerchantEvent("not json at all");
    }

    @Test
    void aMerchantEventOnKafkaReachesTheView() throws Exception {
        MerchantConfiguration config = TestConfigurations.merchant(c -> c.externalMID("kafka-" + UUID.randomUUID()));
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(Topics.MERCHANTS, config.merchantId(), event(config).toJson())).get();
        }
        UUID merchant = UUID.fromString(config.merchantId());
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (QuarkusTransaction.requiringNew().call(() -> MerchantView.findById(merchant)) == null) {
            assertTrue(Instant.now().isBefore(deadline), "the merchant event did not reach the view within 60 s");
            Thread.onSpinWait();
            Thread.sleep(100);
        }
        QuarkusTransaction.requiringNew().run(() -> assertEquals(config.externalMID(),
                MerchantView.<MerchantView>findById(merchant).externalMID));
    }

    /**
     * A creation that read a merchant from merchant-service and the consumer may store the same merchant at once: the
     * second waits for the first to commit and then keeps the newer version, instead of failing on its row (an entity
     * insert after a find that saw no row would: duplicate key, and the consumer's channel would stop).
     */
    @Test
    void aCreationsReadAndTheTopicStoreOneMerchantAtOnceWithoutFailing() throws Exception {
        MerchantConfiguration v1 = TestConfigurations.merchant(c -> c.externalMID("read-" + UUID.randomUUID()));
        UUID merchant = UUID.fromString(v1.merchantId());
        MerchantConfiguration v2 = TestConfigurations.merchant(c -> c.merchantId(merchant)
                .accountId(UUID.fromString(v1.accountId())).version(2).externalMID("topic"));
        CountDownLatch firstWrote = new CountDownLatch(1);
        CountDownLatch secondStarted = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> creation = threads.submit(() -> QuarkusTransaction.requiringNew().call(() -> {
                boolean stored = access.store(v1);
                firstWrote.countDown();
                // hold the uncommitted row until the consumer is blocked on it
                secondStarted.await(10, TimeUnit.SECONDS);
                Thread.sleep(300);
                return stored;
            }));
            assertTrue(firstWrote.await(10, TimeUnit.SECONDS));
            Future<Boolean> topic = threads.submit(() -> {
                secondStarted.countDown();
                return apply(event(v2));
            });
            assertTrue(creation.get(20, TimeUnit.SECONDS), "the creation's read is stored");
            assertTrue(topic.get(20, TimeUnit.SECONDS), "the newer event replaces it once the creation commits");
        } finally {
            threads.shutdownNow();
        }
        QuarkusTransaction.requiringNew().run(() -> {
            MerchantView view = MerchantView.findById(merchant);
            assertEquals(2, view.version);
            assertEquals("topic", view.externalMID);
            assertEquals("topic", view.config.externalMID());
        });
        // the same version read again (a later creation's read) or an older event changes nothing
        assertFalse(QuarkusTransaction.requiringNew().call(() -> access.store(v2)));
        assertFalse(apply(event(v1)));
        QuarkusTransaction.requiringNew().run(() -> assertEquals(v2, MerchantView.<MerchantView>findById(merchant).config,
                "the stored configuration reads back as it was published"));
    }

    private CloudEvent event(MerchantConfiguration config) {
        return CloudEvent.of("/merchant-service", EventTypes.MERCHANT_UPDATED, config.merchantId(),
                mapper.valueToTree(config));
    }

    private boolean apply(CloudEvent event) {
        return QuarkusTransaction.requiringNew().call(() -> consumer.apply(event.toJson()));
    }
}
