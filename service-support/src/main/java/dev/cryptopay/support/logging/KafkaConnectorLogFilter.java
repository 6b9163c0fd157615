package dev.cryptopay.support.logging;

import dev.cryptopay.support.outbox.Channels;
import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The console's filter: turns into DEBUG two kinds of SmallRye Kafka messages that report nothing an operator must act
 * on; every other record passes unchanged. Quarkus links one filter to a handler, so both rules live here.
 * <ul>
 * <li><b>The outbox relay's send failures</b> (docs/decisions.md §127). When the broker does not acknowledge a batch,
 * the connector logs an ERROR "SRMSG18212: Message … was not sent to Kafka topic … - nacking message" and an ERROR
 * "SRMSG18206: Unable to write to Kafka from channel …" for every record of it, with a stack each: 28 ERRORs for one
 * 1 s broker stall in the benchmark (docs/performance.md, fifty-seventh step, item 7), some 400 for every retried batch
 * of 200 during an outage. The relay owns those failures: the rows stay in the outbox, it retries them, and it reports
 * the outage itself ({@code OutboxRelay}, {@code OutageReport}). The same messages for any other channel pass.</li>
 * <li><b>A closed Kafka consumer's echoes</b> (docs/decisions.md §132). SmallRye's poll loop queues its next step (a
 * poll, a pause or resume) on the consumer's polling thread after checking that the consumer is open. The connector's
 * close, at the stop, can queue the close between the two; the step then runs on the closed consumer, and the channel
 * reports "This consumer has already been closed" (an ERROR "SRMSG18217: Unable to read a record from Kafka topics"
 * and WARNs "SRMSG18228: A failure has been reported"). Nothing is lost: what was read and not handed on stays
 * uncommitted for the next start (§119). A closed consumer is only ever used after the connector closed it: at the
 * stop, or after the channel failed, whose own failure was logged before the close.</li>
 * </ul>
 * The messages stay available at DEBUG for their category (e.g.
 * {@code quarkus.log.category."io.smallrye.reactive.messaging.kafka".level=DEBUG}).
 *
 * <p>A filter of its own rather than Quarkus' {@code quarkus.log.filter} (which matches a message's start): the
 * connector's messages are format strings ("… from channel %s …"), so only the parameters name the channel, and only
 * the cause tells a closed consumer's echo from a real read failure.
 */
@LoggingFilter(name = KafkaConnectorLogFilter.NAME)
public final class KafkaConnectorLogFilter implements Filter {

    /** The name {@code quarkus.log.console.filter} gives (service-support's microprofile-config.properties). */
    public static final String NAME = "kafka-connector";
    /** SmallRye Kafka's message logger category ({@code KafkaLogging}). */
    public static final String CATEGORY = "io.smallrye.reactive.messaging.kafka";
    /** SmallRye Reactive Messaging's categories: the connector's, and the mediators' that pass its failures on. */
    private static final String MESSAGING = "io.smallrye.reactive.messaging";
    /** "Unable to write to Kafka from channel %s (topic: %s)": the channel is the first parameter. */
    private static final String UNABLE_TO_WRITE = "SRMSG18206";
    /** "Message %s from channel '%s' was not sent to Kafka topic '%s' - nacking message": the second. */
    private static final String NACKING = "SRMSG18212";
    /** What the Kafka client throws when a closed consumer is used (KafkaConsumer's acquireAndEnsureOpen). */
    static final String CLOSED_CONSUMER = "This consumer has already been closed";

    @Override
    public boolean isLoggable(LogRecord record) {
        String category = record.getLoggerName();
        if (category == null || !category.startsWith(MESSAGING)
                || record.getLevel().intValue() < Level.WARNING.intValue()) {
            return true;
        }
        if (!isOutboxSendFailure(record) && !isClosedConsumerEcho(record)) {
            return true;
        }
        record.setLevel(org.jboss.logmanager.Level.DEBUG);
        return Logger.getLogger(category).isLoggable(org.jboss.logmanager.Level.DEBUG);
    }

    /**
     * A handler gets the record as the connector's format string and its parameters, or already formatted once another
     * handler has formatted it (OutboxRelayBrokerDownTest sees the formatted form in a handler of the connector's own
     * category): either form names the channel.
     */
    private static boolean isOutboxSendFailure(LogRecord record) {
        String message = record.getMessage();
        if (message == null || !CATEGORY.equals(record.getLoggerName())) {
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

    /** The failure, or one of its first causes, is the Kafka client's refusal to serve a closed consumer. */
    private static boolean isClosedConsumerEcho(LogRecord record) {
        Throwable t = record.getThrown();
        for (int depth = 0; t != null && depth < 10; depth++, t = t.getCause()) {
            if (t instanceof IllegalStateException && t.getMessage() != null
                    && t.getMessage().startsWith(CLOSED_CONSUMER)) {
                return true;
            }
        }
        return false;
    }
}
