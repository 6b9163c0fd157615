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
import dev.cryptopay.transaction.service.TestConfigurations;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;
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

    private CloudEvent event(MerchantConfiguration config) {
        return CloudEvent.of("/merchant-service", EventTypes.MERCHANT_UPDATED, config.merchantId(),
                mapper.valueToTree(config));
    }

    private boolean apply(CloudEvent event) {
        return QuarkusTransaction.requiringNew().call(() -> consumer.apply(event.toJson()));
    }
}
