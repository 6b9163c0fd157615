package dev.cryptopay.support.inbox;

import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

/**
 * Carries a consumer group's position over from the groups it replaces (docs/decisions.md §102). A service that read
 * each topic with a consumer of its own (group {@code webhook-service.transactions}, {@code webhook-service.refunds},
 * ...) reads them all with one consumer now (group {@code webhook-service}); without this, the new group has no
 * committed offset, {@code auto.offset.reset=earliest} applies, and the service would read every topic again from the
 * start of its retention. On each assignment, for every partition the group has no committed offset for, this looks up
 * the offset the previous group of that topic committed, seeks there and commits it at once for the new group, so the
 * new group stands on its own from then on (the previous groups can be deleted after an upgrade). A partition that
 * neither group has an offset for starts as {@code auto.offset.reset} says, as before.
 *
 * <p>A failure to read the offsets (the broker unreachable) propagates out of the consumer's poll: the channel fails
 * and the service's health says so, rather than replaying whole topics.
 *
 * <p>Kafka has no built-in way to move committed offsets from one group to another (the consumer-groups tool resets
 * a group's own offsets only), hence this, with the clients' own Admin API.
 */
public class OffsetCarryOver implements KafkaConsumerRebalanceListener {

    private static final Logger LOG = Logger.getLogger(OffsetCarryOver.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> adminConfig;
    private final Function<String, Map<String, String>> previousGroupByTopic;

    /**
     * @param adminConfig the broker's client configuration (bootstrap servers and, in production, security), as for
     *        the channel's own consumer
     * @param previousGroupByTopic for the consuming group's id, the group that read each topic before (topics absent
     *        from the map have no previous group)
     */
    public OffsetCarryOver(Map<String, Object> adminConfig, Function<String, Map<String, String>> previousGroupByTopic) {
        Map<String, Object> known = new HashMap<>();
        adminConfig.forEach((key, value) -> {
            // Only what an admin client takes (the shared kafka.* settings also hold consumer and producer keys,
            // which it would log as unknown).
            if (AdminClientConfig.configNames().contains(key) || key.startsWith("sasl.") || key.startsWith("ssl.")) {
                known.put(key, value);
            }
        });
        known.put(AdminClientConfig.CLIENT_ID_CONFIG, "offset-carry-over");
        this.adminConfig = Map.copyOf(known);
        this.previousGroupByTopic = previousGroupByTopic;
    }

    /**
     * The usual naming: the group that read a topic before was this group's id, a dot and the topic's short name
     * ({@code webhook-service} and {@code payments.refunds.v1} → {@code webhook-service.refunds}).
     */
    public static Function<String, Map<String, String>> suffixed(Map<String, String> shortNameByTopic) {
        return group -> {
            Map<String, String> previous = new LinkedHashMap<>();
            shortNameByTopic.forEach((topic, shortName) -> previous.put(topic, group + "." + shortName));
            return previous;
        };
    }

    /** Previous groups named outright, whatever the consuming group's id. */
    public static Function<String, Map<String, String>> named(Map<String, String> previousGroupByTopic) {
        Map<String, String> previous = Map.copyOf(previousGroupByTopic);
        return group -> previous;
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        String group = consumer.groupMetadata().groupId();
        Map<String, String> previous = previousGroupByTopic.apply(group);
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions), TIMEOUT);
        Map<String, Set<TopicPartition>> missingByPreviousGroup = new HashMap<>();
        for (TopicPartition partition : partitions) {
            String previousGroup = previous.get(partition.topic());
            if (previousGroup != null && committed.get(partition) == null) {
                missingByPreviousGroup.computeIfAbsent(previousGroup, g -> new HashSet<>()).add(partition);
            }
        }
        if (missingByPreviousGroup.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> carried = new HashMap<>();
        try (Admin admin = Admin.create(adminConfig)) {
            for (Map.Entry<String, Set<TopicPartition>> entry : missingByPreviousGroup.entrySet()) {
                Map<TopicPartition, OffsetAndMetadata> theirs = admin.listConsumerGroupOffsets(entry.getKey())
                        .partitionsToOffsetAndMetadata().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                for (TopicPartition partition : entry.getValue()) {
                    OffsetAndMetadata offset = theirs.get(partition);
                    if (offset != null) {
                        carried.put(partition, new OffsetAndMetadata(offset.offset(), "carried over from "
                                + entry.getKey()));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the previous groups' offsets", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the offsets of the groups " + missingByPreviousGroup.keySet()
                    + " that group " + group + " replaces; not starting from the beginning of the topics", e);
        }
        if (carried.isEmpty()) {
            return;
        }
        carried.forEach((partition, offset) -> consumer.seek(partition, offset.offset()));
        consumer.commitSync(carried, TIMEOUT);
        LOG.infof("group %s: carried over the offsets of %s for %s", group, missingByPreviousGroup.keySet(),
                List.copyOf(carried.keySet()));
    }
}
