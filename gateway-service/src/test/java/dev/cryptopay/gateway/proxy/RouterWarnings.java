package dev.cryptopay.gateway.proxy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The messages GatewayRouter logs at WARN or above while this is open, for tests that check what the gateway warns
 * about (and what it does not).
 */
final class RouterWarnings extends Handler implements AutoCloseable {

    private final Logger routerLog = Logger.getLogger(GatewayRouter.class.getName());
    private final List<String> messages = new CopyOnWriteArrayList<>();

    private RouterWarnings() {
    }

    /** Starts capturing; {@link #close} stops. */
    static RouterWarnings capture() {
        RouterWarnings warnings = new RouterWarnings();
        warnings.routerLog.addHandler(warnings);
        return warnings;
    }

    /** The messages captured so far, oldest first. */
    List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
            messages.add(String.valueOf(record.getMessage()));
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        routerLog.removeHandler(this);
    }
}
