package dev.cryptopay.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.CapturedLog;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Which records the console's filter turns into DEBUG (docs/decisions.md §127): SmallRye Kafka's two per-record send
 * failures for the outbox's channel, in either form a handler gets them, and nothing else. The texts are the
 * connector's own (its KafkaLogging messages 18206 and 18212); OutboxRelayBrokerDownTest has the connector log them.
 */
class OutboxSendFailureFilterTest {

    private static final String UNABLE = "SRMSG18206: Unable to write to Kafka from channel %s (topic: %s)";
    private static final String NACKING = "SRMSG18212: Message %s from channel '%s' was not sent to Kafka topic '%s' "
            + "- nacking message";

    private final OutboxSendFailureFilter filter = new OutboxSendFailureFilter();

    private static LogRecord record(String category, Level level, String message, Object... parameters) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName(category);
        record.setParameters(parameters.length == 0 ? null : parameters);
        return record;
    }

    private static LogRecord connector(String message, Object... parameters) {
        return record(OutboxSendFailureFilter.CATEGORY, org.jboss.logmanager.Level.ERROR, message, parameters);
    }

    @Test
    void theOutboxChannelsSendFailuresBecomeDebugAndAreDroppedWhileTheCategoryLogsNoDebug() {
        for (LogRecord failure : new LogRecord[] {
            connector(UNABLE, "outbox-out", "payments.transactions.v1"),
            connector(String.format(UNABLE, "outbox-out", "payments.transactions.v1")),
            connector(NACKING, "Message@1a2b", "outbox-out", "payments.transactions.v1"),
            connector(String.format(NACKING, "Message@1a2b", "outbox-out", "payments.transactions.v1")),
        }) {
            assertFalse(filter.isLoggable(failure), CapturedLog.line(failure));
            assertEquals(org.jboss.logmanager.Level.DEBUG, failure.getLevel());
        }
    }

    @Test
    void theyAreKeptAtDebugWhenTheCategoryLogsDebug() {
        Logger category = Logger.getLogger(OutboxSendFailureFilter.CATEGORY);
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

    @Test
    void everythingElsePassesUnchanged() {
        for (LogRecord other : new LogRecord[] {
            connector(UNABLE, "events-out", "payments.transactions.v1"),
            connector(String.format(UNABLE, "outbox-outer", "t")),
            connector(NACKING, "Message@1a2b", "events-out", "t"),
            connector(String.format(NACKING, "Message@1a2b", "events-out", "t")),
            connector("SRMSG18217: Unable to read a record from Kafka topics '%s'", "payments.transactions.v1"),
            record(OutboxSendFailureFilter.CATEGORY, org.jboss.logmanager.Level.INFO, UNABLE, "outbox-out", "t"),
            record("dev.cryptopay.other", org.jboss.logmanager.Level.ERROR, UNABLE, "outbox-out", "t"),
        }) {
            Level level = other.getLevel();
            assertTrue(filter.isLoggable(other), CapturedLog.line(other));
            assertEquals(level, other.getLevel(), CapturedLog.line(other));
        }
    }
}
