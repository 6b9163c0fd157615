package dev.cryptopay.support.outbox;

import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Turns SmallRye Kafka's per-record failure messages for the outbox relay's channel into DEBUG (docs/decisions.md
 * §127). When the broker does not acknowledge a batch, the connector logs an ERROR "SRMSG18212: Message … was not sent
 * to Kafka topic … - nacking message" and an ERROR "SRMSG18206: Unable to write to Kafka from channel …" for every
 * record of it, with a stack each: 28 ERRORs for one 1 s broker stall in the benchmark (docs/performance.md,
 * fifty-seventh step, item 7), some 400 for every retried batch of 200 during an outage. The relay owns those
 * failures: the rows stay in the outbox, it retries them, and it reports the outage itself, once when it begins,
 * once a minute while it lasts (an ERROR after {@code cryptopay.outbox.error-after}) and once when it ends
 * ({@link OutboxRelay}). The messages stay available at DEBUG for that category
 * ({@code quarkus.log.category."io.smallrye.reactive.messaging.kafka".level=DEBUG}); the same messages for any other
 * channel, and every other message, pass unchanged.
 *
 * <p>A filter of its own rather than Quarkus' {@code quarkus.log.filter} (which matches a message's start): the
 * connector's messages are format strings ("… from channel %s …"), so only the parameters name the channel.
 */
@LoggingFilter(name = OutboxSendFailureFilter.NAME)
public final class OutboxSendFailureFilter implements Filter {

    /** The name {@code quarkus.log.console.filter} gives (service-support's microprofile-config.properties). */
    public static final String NAME = "outbox-send-failures";
    /** SmallRye Kafka's message logger category ({@code KafkaLogging}). */
    static final String CATEGORY = "io.smallrye.reactive.messaging.kafka";
    /** "Unable to write to Kafka from channel %s (topic: %s)": the channel is the first parameter. */
    private static final String UNABLE_TO_WRITE = "SRMSG18206";
    /** "Message %s from channel '%s' was not sent to Kafka topic '%s' - nacking message": the second. */
    private static final String NACKING = "SRMSG18212";

    @Override
    public boolean isLoggable(LogRecord record) {
        if (!CATEGORY.equals(record.getLoggerName()) || !isOutboxSendFailure(record)) {
            return true;
        }
        record.setLevel(org.jboss.logmanager.Level.DEBUG);
        return Logger.getLogger(CATEGORY).isLoggable(org.jboss.logmanager.Level.DEBUG);
    }

    /**
     * A handler gets the record as the connector's format string and its parameters, or already formatted once another
     * handler has formatted it (OutboxRelayBrokerDownTest sees the formatted form in a handler of the connector's own
     * category): either form names the channel.
     */
    private static boolean isOutboxSendFailure(LogRecord record) {
        String message = record.getMessage();
        if (message == null || record.getLevel().intValue() < Level.WARNING.intValue()) {
            return false;
        }
        Object[] parameters = record.getParameters();
        boolean formatted = parameters == null || parameters.length == 0;
        if (message.startsWith(UNABLE_TO_WRITE)) {
            return formatted ? message.startsWith(UNABLE_TO_WRITE + ": Unable to write to Kafka from channel "
                    + Channels.OUTBOX + " ") : Channels.OUTBOX.equals(parameters[0]);
        }
        if (message.startsWith(NACKING)) {
            return formatted ? message.contains(" from channel '" + Channels.OUTBOX + "' ")
                    : parameters.length >= 2 && Channels.OUTBOX.equals(parameters[1]);
        }
        return false;
    }
}
