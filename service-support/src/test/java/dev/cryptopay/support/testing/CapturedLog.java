package dev.cryptopay.support.testing;

import java.util.Arrays;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.jboss.logmanager.ExtLogRecord;

/**
 * Every record a logger category passes on while this is open, for tests that check what is logged and what is not.
 * Open it in a try-with-resources block or close it in an {@code @AfterEach}, so that it leaves its logger however the
 * test ends.
 *
 * <p>Hand-rolled because the services' tests run under {@code @QuarkusTest}, whose log manager (JBoss LogManager) takes
 * a plain {@code java.util.logging} handler; Quarkus' own capture ({@code QuarkusUnitTest.setLogRecordPredicate}) is
 * for its extension tests only.
 */
public final class CapturedLog extends Handler implements AutoCloseable {

    private final Logger log;
    private final boolean named;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private CapturedLog(Logger log, boolean named) {
        this.log = log;
        this.named = named;
        log.addHandler(this);
    }

    /** What the category and the categories under it log. */
    public static CapturedLog of(String category) {
        return new CapturedLog(Logger.getLogger(category), false);
    }

    /** What the class's logger logs. */
    public static CapturedLog of(Class<?> type) {
        return of(type.getName());
    }

    /** What the whole service logs; its {@link #lines} name the logger of each: "LEVEL logger: message". */
    public static CapturedLog everything() {
        return new CapturedLog(Logger.getLogger(""), true);
    }

    /** Sets the logger's level, for a test that needs DEBUG or INFO there; {@link #close} does not restore it. */
    public CapturedLog level(Level level) {
        log.setLevel(level);
        return this;
    }

    /** The records so far, oldest first: copies, with the level each had when it reached this category. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /**
     * The messages at {@code least} or above so far, oldest first, as the log manager passed them on: a format string
     * or the formatted text ({@link #lines} fills the parameters in).
     */
    public List<String> messages(Level least) {
        return atLeast(least).map(record -> String.valueOf(record.getMessage())).toList();
    }

    /** "LEVEL message" with the parameters filled in, oldest first. */
    public List<String> lines() {
        return lines(Level.ALL);
    }

    /** {@link #lines()} at {@code least} or above. */
    public List<String> lines(Level least) {
        return atLeast(least).map(record -> named
                ? record.getLevel() + " " + record.getLoggerName() + ": " + text(record)
                : line(record)).toList();
    }

    private Stream<LogRecord> atLeast(Level least) {
        return records.stream().filter(record -> record.getLevel().intValue() >= least.intValue());
    }

    /**
     * "LEVEL message" with the parameters filled in: as the log manager formats the record if it made it, else
     * {@code %s} style (JBoss Logging's {@code infof}), else the message and its parameters as they are.
     */
    public static String line(LogRecord record) {
        return record.getLevel() + " " + text(record);
    }

    private static String text(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            return ext.getFormattedMessage();
        }
        Object[] parameters = record.getParameters();
        String message = String.valueOf(record.getMessage());
        if (parameters == null) {
            return message;
        }
        try {
            return String.format(message, parameters);
        } catch (IllegalFormatException notPrintf) {
            return message + " " + Arrays.toString(parameters);
        }
    }

    /**
     * Keeps a copy: the same record goes on to the handlers of the parent loggers, whose filters may change its level
     * (service-support's KafkaConnectorLogFilter does).
     */
    @Override
    public void publish(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            records.add(new ExtLogRecord(ext));
            return;
        }
        LogRecord copy = new LogRecord(record.getLevel(), record.getMessage());
        copy.setParameters(record.getParameters());
        copy.setLoggerName(record.getLoggerName());
        copy.setThrown(record.getThrown());
        records.add(copy);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        log.removeHandler(this);
    }
}
