package dev.cryptopay.reporting.config;

import dev.cryptopay.events.Topics;
import dev.cryptopay.reporting.messaging.ProjectionConsumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * The topics the projection reads and its consumer group, as configured ({@code cryptopay.reporting.topics.*}, which
 * the channel's {@code topics} names too, so a benchmark or a test that points the projection at other topics is
 * followed by the consumer, the lag monitor and the rebuild alike).
 */
@ApplicationScoped
public class StreamTopics {

    /**
     * A topic the projection reads: its configured name, the projection's name for it (a {@link Topics} constant)
     * and the short name its own consumer group had until decisions §102 ({@code <group>.<shortName>}).
     */
    public record Source(String topic, String canonical, String shortName, String group) {
    }

    private final Map<String, Source> byTopic = new LinkedHashMap<>();
    private final String bootstrapServers;

    @Inject
    public StreamTopics(Config config) {
        this(config.getValue("mp.messaging.incoming." + ProjectionConsumer.EVENTS + ".group.id", String.class),
                Map.of(Topics.TRANSACTIONS, topic(config, "transactions", Topics.TRANSACTIONS),
                        Topics.REFUNDS, topic(config, "refunds", Topics.REFUNDS),
                        Topics.MERCHANTS, topic(config, "merchants", Topics.MERCHANTS)),
                config.getValue("kafka.bootstrap.servers", String.class));
    }

    /** For tests: the group and, per projection topic, the topic read for it. */
    public StreamTopics(String group, Map<String, String> topicByCanonical, String bootstrapServers) {
        for (String canonical : List.of(Topics.TRANSACTIONS, Topics.REFUNDS, Topics.MERCHANTS)) {
            String topic = topicByCanonical.getOrDefault(canonical, canonical);
            String shortName = canonical.substring("payments.".length(), canonical.lastIndexOf('.'));
            byTopic.put(topic, new Source(topic, canonical, shortName, group));
        }
        this.bootstrapServers = bootstrapServers;
    }

    private static String topic(Config config, String name, String canonical) {
        return config.getOptionalValue("cryptopay.reporting.topics." + name, String.class).orElse(canonical);
    }

    public Iterable<Source> sources() {
        return byTopic.values();
    }

    /** The projection's name for a topic read ({@code topic} itself when it is none of the configured ones). */
    public String canonical(String topic) {
        Source source = byTopic.get(topic);
        return source == null ? topic : source.canonical();
    }

    /** Each configured topic's short name, for the previous groups' names ({@code <group>.<shortName>}). */
    public Map<String, String> shortNames() {
        Map<String, String> names = new LinkedHashMap<>();
        byTopic.values().forEach(source -> names.put(source.topic(), source.shortName()));
        return names;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }
}
