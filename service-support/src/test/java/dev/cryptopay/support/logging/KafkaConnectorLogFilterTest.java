package dev.cryptopay.support.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.CapturedLog;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Which records the console's filter turns into DEBUG: SmallRye Kafka's two per-record send failures for the outbox's
 * channel, in either form a handler gets them (docs/decisions.md §127), and the messaging layer's failures whose cause
 * is a closed Kafka consumer (§132); nothing else. The texts are the connector's own (its KafkaLogging messages 18206,
 * 18212, 18217 and 18228) and the Kafka client's; OutboxRelayBrokerDownTest has the connector log the first two.
 */
class KafkaConnectorLogFilterTest {

    private static final String UNABLE = "SRMSG18206: Unable to write to Kafka from channel %s (topic: %s)";
    private static final String NACKING = "SRMSG18212: Message %s from channel '%s' was not sent to Kafka topic '%s' "
            + "- nacking message";
    private static final String UNABLE_TO_READ = "SRMSG18217: Unable to read a record from Kafka topics '%s'";
    private static final String FAILURE_REPORTED = "SRMSG18228: A failure has been reported for Kafka topics '%s'";
    private static final String TOPICS = "[payments.transactions.v1, payments.refunds.v1]";

    private final KafkaConnectorLogFilter filter = new KafkaConnectorLogFilter();

    private static LogRecord record(String category, Level level, String message, Object... parameters) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName(category);
        record.setParameters(parameters.length == 0 ? null : parameters);
        return record;
    }

    private static LogRecord connector(String message, Object... parameters) {
        return record(KafkaConnectorLogFilter.CATEGORY, org.jboss.logmanager.Level.ERROR, message, parameters);
    }

    private static LogRecord thrown(LogRecord record, Throwable thrown) {
        record.setThrown(thrown);
        return record;
    }

    /** As the Kafka client throws it from a closed consumer's poll, pause or assignment. */
    private static IllegalStateException closedConsumer() {
        return new IllegalStateException("This consumer has already been closed.");
    }

    /** Each record becomes DEBUG and is dropped: the test's categories log no DEBUG. */
    private void assertDemotedAndDropped(LogRecord... records) {
        for (LogRecord record : records) {
            assertFalse(filter.isLoggable(record), CapturedLog.line(record));
            assertEquals(org.jboss.logmanager.Level.DEBUG, record.getLevel());
        }
    }

    @Test
    void theOutboxChannelsSendFailuresBecomeDebugAndAreDroppedWhileTheCategoryLogsNoDebug() {
        assertDemotedAndDropped(
                connector(UNABLE, "outbox-out", "payments.transactions.v1"),
                connector(String.format(UNABLE, "outbox-out", "payments.transactions.v1")),
                connector(NACKING, "Message@1a2b", "outbox-out", "payments.transactions.v1"),
                connector(String.format(NACKING, "Message@1a2b", "outbox-out", "payments.transactions.v1")));
    }

    @Test
    void theyAreKeptAtDebugWhenTheCategoryLogsDebug() {
        Logger category = Logger.getLogger(KafkaConnectorLogFilter.CATEGORY);
        Level before = category.getLevel();
        category.setLevel(org.jboss.logmanager.Level.DEBUG);
        try {
            LogRecord failure = connector(UNABLE, "outbox-out", "payments.transactions.v1");
            assertTrue(filter.isLoggable(failure));
            assertEquals(org.jboss.logmanager.Level.DEBUG, failure.getLevel());
        } finally {
            category.setLevel(before);
        }
    }

    /** The channel's failure at a stop, as SmallRye's record stream reports it once its consumer was closed. */
    @Test
    void aClosedConsumersFailuresBecomeDebugWhereverTheyAreReported() {
        assertDemotedAndDropped(
                thrown(connector(UNABLE_TO_READ, TOPICS), closedConsumer()),
                thrown(record(KafkaConnectorLogFilter.CATEGORY, org.jboss.logmanager.Level.WARN, FAILURE_REPORTED,
                        TOPICS), closedConsumer()),
                thrown(connector(String.format(UNABLE_TO_READ, TOPICS)), closedConsumer()),
                thrown(record("io.smallrye.reactive.messaging.provider", org.jboss.logmanager.Level.ERROR,
                        "SRMSG00201: Error caught while processing a message in method %s", "onEvent"),
                        new java.util.concurrent.CompletionException(closedConsumer())));
    }

    @Test
    void everythingElsePassesUnchanged() {
        for (LogRecord other : new LogRecord[] {
            connector(UNABLE, "events-out", "payments.transactions.v1"),
            connector(String.format(UNABLE, "outbox-outer", "t")),
            connector(NACKING, "Message@1a2b", "events-out", "t"),
            connector(String.format(NACKING, "Message@1a2b", "events-out", "t")),
            connector(UNABLE_TO_READ, TOPICS),
            thrown(connector(UNABLE_TO_READ, TOPICS), new IllegalStateException("No current assignment")),
            thrown(connector(UNABLE_TO_READ, TOPICS), new RuntimeException("This consumer has already been closed.")),
            thrown(record(KafkaConnectorLogFilter.CATEGORY, org.jboss.logmanager.Level.INFO, FAILURE_REPORTED,
                    TOPICS), closedConsumer()),
            thrown(record("dev.cryptopay.other", org.jboss.logmanager.Level.ERROR, UNABLE_TO_READ, TOPICS),
                    closedConsumer()),
            record(KafkaConnectorLogFilter.CATEGORY, org.jboss.logmanager.Level.INFO, UNABLE, "outbox-out", "t"),
            record("dev.cryptopay.other", org.jboss.logmanager.Level.ERROR, UNABLE, "outbox-out", "t"),
        }) {
            Level level = other.getLevel();
            assertTrue(filter.isLoggable(other), CapturedLog.line(other));
            assertEquals(level, other.getLevel(), CapturedLog.line(other));
        }
    }
}
