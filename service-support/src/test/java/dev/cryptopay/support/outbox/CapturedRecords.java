package dev.cryptopay.support.outbox;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Every record one logger category passes on while this is open, at any level its logger lets through. */
final class CapturedRecords extends Handler implements AutoCloseable {

    private final Logger log;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    CapturedRecords(String category) {
        this.log = Logger.getLogger(category);
        log.addHandler(this);
    }

    /** The records so far, oldest first. */
    List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** "LEVEL message" with the parameters filled in, oldest first. */
    List<String> lines() {
        return records.stream().map(CapturedRecords::line).toList();
    }

    static String line(LogRecord record) {
        Object[] parameters = record.getParameters();
        String message = String.valueOf(record.getMessage());
        return record.getLevel() + " " + (parameters == null ? message : String.format(message, parameters));
    }

    /** The logger's level, for a test that needs DEBUG; {@link #close} does not restore it. */
    CapturedRecords level(Level level) {
        log.setLevel(level);
        return this;
    }

    /**
     * Keeps a copy: the same record goes on to the handlers of the parent loggers, whose filters may change its level
     * (OutboxSendFailureFilter does).
     */
    @Override
    public void publish(LogRecord record) {
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
