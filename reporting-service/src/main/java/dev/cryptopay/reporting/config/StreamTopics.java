package dev.cryptopay.reporting.config;

import dev.cryptopay.reporting.messaging.ProjectionConsumer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * The topics the projection reads and its consumer groups, as the channels are configured (so a benchmark or a test
 * that points a channel at other topics is followed by the lag monitor and the rebuild too).
 */
@ApplicationScoped
public class StreamTopics {

    /** A topic read by a channel, with the channel's consumer group. */
    public record Source(String channel, String topic, String group) {
    }

    private final Map<String, Source> byChannel = new LinkedHashMap<>();
    private final String bootstrapServers;

    public StreamTopics(Config config) {
        for (String channel : new String[] { ProjectionConsumer.TRANSACTIONS, ProjectionConsumer.REFUNDS,
                ProjectionConsumer.MERCHANTS }) {
            String prefix = "mp.messaging.incoming." + channel + ".";
            byChannel.put(channel, new Source(channel, config.getValue(prefix + "topic", String.class),
                    config.getValue(prefix + "group.id", String.class)));
        }
        bootstrapServers = config.getValue("kafka.bootstrap.servers", String.class);
    }

    public Iterable<Source> sources() {
        return byChannel.values();
    }

    public Source of(String channel) {
        return byChannel.get(channel);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }
}
