package dev.cryptopay.gateway.proxy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The messages logged at a level or above while this is open, for tests that check what the gateway warns about or
 * fails with (and what it does not): {@link #routerWarnings} or {@link #errors}.
 */
final class CapturedLog extends Handler implements AutoCloseable {

    private final Logger log;
    private final Level least;
    private final boolean withLoggerName;
    private final List<String> messages = new CopyOnWriteArrayList<>();

    private CapturedLog(Logger log, Level least, boolean withLoggerName) {
        this.log = log;
        this.least = least;
        this.withLoggerName = withLoggerName;
        log.addHandler(this);
    }

    /** What GatewayRouter logs at WARN or above, its messages only; {@link #close} stops. */
    static CapturedLog routerWarnings() {
        return new CapturedLog(Logger.getLogger(GatewayRouter.class.getName()), Level.WARNING, false);
    }

    /** Every ERROR of the gateway as "logger: message" (an uncaught exception in Vert.x, say); {@link #close} stops. */
    static CapturedLog errors() {
        return new CapturedLog(Logger.getLogger(""), Level.SEVERE, true);
    }

    /** The messages captured so far, oldest first. */
    List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= least.intValue()) {
            String message = String.valueOf(record.getMessage());
            messages.add(withLoggerName ? record.getLoggerName() + ": " + message : message);
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        log.removeHandler(this);
    }
}
