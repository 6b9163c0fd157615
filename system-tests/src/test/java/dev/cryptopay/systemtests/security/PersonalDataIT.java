package dev.cryptopay.systemtests.security;

import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.asApiKey;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.asPublishable;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.awaitKycTransaction;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newAccount;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newMerchant;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newPublishableKey;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.pngWith;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.tree;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.security.TransactionSecurityFixtures.Account;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Personal data of a verified customer (issue #13, "Personal data"; docs/decisions.md §7, §11): the API key reads
 * {@code kycDetails}; the publishable key, which is public on a checkout, reads {@code kycDetails},
 * {@code resolutionLogs} and {@code strFilingReference} as null; the transaction's events on Kafka (and so every
 * webhook and webhook-service's payload table) carry {@code kycDetails} null and no trace of the customer.
 */
class PersonalDataIT {

    @BeforeAll
    static void start() {
        TransactionSecurityFixtures.start();
    }

    @Test
    void theCustomersDetailsStayWithTheApiKey() {
        Account account = newAccount("Personal Data Ltd");
        String merchant = newMerchant(account, "Jeweller", true);
        String publishable = newPublishableKey(account, merchant);
        String id = awaitKycTransaction(publishable);
        String surname = "Lovelace";
        String email = "ada-" + UUID.randomUUID() + "@example.com";
        verify(publishable, id, "Ada", email, false, pngWith("passport"));

        JsonNode viaApiKey = tree(asApiKey(account, merchant).when().get("/transaction/" + id).then().statusCode(200)
                .extract().asString());
        JsonNode kyc = viaApiKey.at("/compliance/kycDetails");
        assertEquals("Ada", kyc.get("firstName").asText(), "the API key reads the verification");
        assertEquals(surname, kyc.get("lastName").asText());
        assertEquals(email, kyc.get("email").asText());

        JsonNode viaPublishable = tree(asPublishable(publishable).when().get("/transaction/" + id).then()
                .statusCode(200).extract().asString());
        JsonNode compliance = viaPublishable.get("compliance");
        assertTrue(compliance.has("kycDetails") && compliance.get("kycDetails").isNull(), compliance.toString());
        assertTrue(compliance.has("resolutionLogs") && compliance.get("resolutionLogs").isNull(),
                compliance.toString());
        assertTrue(compliance.has("strFilingReference") && compliance.get("strFilingReference").isNull(),
                compliance.toString());
        assertTrue(compliance.get("kycTriggered").asBoolean(), "the flags stay: the checkout needs them");
        assertFalse(viaPublishable.toString().contains(surname), viaPublishable.toString());
        assertFalse(viaPublishable.toString().contains(email), viaPublishable.toString());

        List<CloudEvent> events = events(id, 3);
        assertEquals(List.of("transaction.created", "transaction.kyc_required", "transaction.verified"),
                events.stream().map(CloudEvent::type).toList());
        for (CloudEvent event : events) {
            JsonNode data = tree(event.data().toString());
            assertTrue(data.at("/compliance/kycDetails").isNull(), event.type() + ": " + data);
            assertFalse(data.toString().contains(surname), event.type() + " names the customer: " + data);
            assertFalse(data.toString().contains(email), event.type() + " carries the e-mail: " + data);
        }
    }

    private static List<CloudEvent> events(String transactionId, int count) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "it-personal-data-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<CloudEvent> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(Topics.TRANSACTIONS));
            Instant deadline = Instant.now().plusSeconds(30);
            while (found.size() < count && Instant.now().isBefore(deadline)) {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    if (transactionId.equals(record.key())) {
                        found.add(CloudEvent.parse(record.value()));
                    }
                }
            }
        }
        assertEquals(count, found.size(), "events of " + transactionId + " on " + Topics.TRANSACTIONS);
        return found;
    }
}
