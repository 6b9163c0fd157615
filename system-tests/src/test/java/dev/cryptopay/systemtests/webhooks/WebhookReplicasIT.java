package dev.cryptopay.systemtests.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * Two webhook-service instances side by side on one database and one consumer group, as replicas run: the
 * topic's partitions are shared between them (both are members of the group), both dispatchers claim deliveries
 * from the shared table, and each of 600 events reaches the merchant exactly once - no event lost, none sent twice
 * (the inbox takes an event once whichever instance reads it; a delivery is claimed by one dispatcher at a time).
 */
class WebhookReplicasIT {

    private static final int EVENTS = 600;
    private static final String REPLICA = "webhook-replica";
    /** webhook-service's one consumer group, over the three payments topics. */
    private static final String GROUP = "webhook-service";
    private static final int REPLICA_PORT = 18094;

    @Test
    void twoInstancesDeliverEveryEventExactlyOnce() throws Exception {
        Suite suite = Suite.throughGateway();
        suite.startReplica("webhook", REPLICA, REPLICA_PORT);
        try (WebhookReceiver receiver = WebhookReceiver.answering(200);
                KafkaProducer<String, String> producer = WebhookFixtures.producer();
                Admin admin = Admin.create(adminProps())) {
            Account shop = WebhookFixtures.newAccount(suite, "Replicas Webhook Shop");
            WebhookFixtures.createWebhook(shop, "replicas", receiver.url(), List.of("*"));
            WebhookFixtures.awaitTrue(Duration.ofSeconds(60), () -> members(admin).size() == 2,
                    "both instances in the consumer group");

            List<String> ids = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                String id = UUID.randomUUID().toString();
                String tx = UUID.randomUUID().toString();
                ids.add(id);
                producer.send(new ProducerRecord<>(Topics.TRANSACTIONS, tx,
                        WebhookFixtures.transactionEvent(id, "transaction.success", tx, shop.id())));
            }
            producer.flush();
            WebhookFixtures.awaitTrue(Duration.ofSeconds(120), () -> receiver.distinctIds().containsAll(ids),
                    "every event delivered (" + receiver.distinctIds().size() + " of " + EVENTS + ")");
            Thread.sleep(3000); // both dispatchers poll a few more times: nothing may be sent again

            Set<String> partitionsOwned = new HashSet<>();
            List<MemberDescription> members = members(admin);
            members.forEach(m -> m.assignment().topicPartitions().forEach(tp -> partitionsOwned.add(m.consumerId())));
            assertEquals(2, members.size(), "members of " + GROUP + ": " + members);
            assertEquals(2, partitionsOwned.size(), "both instances own partitions of the topic");
            assertEquals(EVENTS, receiver.count(), "requests received (a duplicate would count twice)");
            assertEquals(new HashSet<>(ids), receiver.distinctIds());
            System.out.printf("[replicas] two webhook-service instances delivered %d events, %d requests%n",
                    receiver.distinctIds().size(), receiver.count());
        } finally {
            suite.stopService(REPLICA);
        }
    }

    private static List<MemberDescription> members(Admin admin) {
        try {
            Map<String, ConsumerGroupDescription> groups = admin
                    .describeConsumerGroups(List.of(GROUP)).all().get();
            return new ArrayList<>(groups.get(GROUP).members());
        } catch (Exception e) {
            return List.of();
        }
    }

    private static Properties adminProps() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        return props;
    }
}
