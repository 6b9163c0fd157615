package dev.cryptopay.gateway.proxy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Filter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtHandler;
import org.junit.jupiter.api.Test;

/**
 * Netty's warning for a client gone while the gateway wrote it an answer is not written to the log at WARN (the
 * gateway's application.properties says why); Netty's other warnings are. Read through the filters the running
 * gateway's log handlers were given, so the configuration is tested as Quarkus applies it.
 */
@QuarkusTest
class ClientGoneWarningTest {

    static final String NETTY = "io.netty.channel.AbstractChannelHandlerContext";

    /** The record as the gateway's log showed it under the benchmark (the stack trace follows it). */
    static final String SEEN = "Failed to mark a promise as failure because it has failed already: "
            + "DefaultChannelPromise@219da7cf(failure: io.netty.channel.StacklessClosedChannelException), unnotified "
            + "cause: io.netty.channel.StacklessClosedChannelException";

    private static LogRecord warning(String logger, String message) {
        LogRecord record = new LogRecord(Level.WARNING, message);
        record.setLoggerName(logger);
        return record;
    }

    /** Whether every filter on the root logger's handlers (and the handlers they wrap) lets the record through. */
    private static boolean written(LogRecord record) {
        List<Filter> filters = new ArrayList<>();
        collect(Logger.getLogger("").getHandlers(), filters);
        assertFalse(filters.isEmpty(), "the gateway's log handlers have filters");
        return filters.stream().allMatch(filter -> filter.isLoggable(record));
    }

    private static void collect(Handler[] handlers, List<Filter> into) {
        for (Handler handler : handlers) {
            if (handler.getFilter() != null) {
                into.add(handler.getFilter());
            }
            if (handler instanceof ExtHandler wrapping) {
                collect(wrapping.getHandlers(), into);
            }
        }
    }

    @Test
    void theWarningForAClientGoneMidAnswerIsNotWritten() {
        LogRecord record = warning(NETTY, SEEN);
        assertFalse(written(record), "dropped at the default INFO level");
        assertTrue(record.getLevel().intValue() < Level.INFO.intValue(), "turned into DEBUG: " + record.getLevel());
    }

    @Test
    void nettysOtherWarningsAreWritten() {
        assertTrue(written(warning(NETTY,
                "Failed to mark a promise as failure because it has succeeded already: DefaultChannelPromise@1")));
        assertTrue(written(warning(NETTY, "An exception was thrown by a user handler's exceptionCaught() method")));
    }

    @Test
    void theSameWordsFromAnotherLoggerAreWritten() {
        assertTrue(written(warning(GatewayRouter.class.getName(), SEEN)));
    }
}
