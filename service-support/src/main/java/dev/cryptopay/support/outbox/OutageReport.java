package dev.cryptopay.support.outbox;

import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * How the outbox relay reports runs that fail, mostly a broker that does not acknowledge (docs/decisions.md §127): a
 * WARN at the first failure of an outage, then at most one line each {@code every} while failures go on (a WARN, an
 * ERROR once the outage has lasted {@code errorAfter}), and an INFO at the first success after it, so that a 1 s broker
 * stall is one WARN and one INFO, and an outage that lasts is still seen and escalated. Not thread-safe: the relay
 * calls it from its one thread. Times are {@link System#nanoTime} readings, passed in so tests need no clock.
 */
final class OutageReport {

    private final Logger log;
    private final long errorAfterNanos;
    private final long everyNanos;
    /** The failed runs of the outage under way; 0 while there is none. */
    private int failures;
    /** When the outage's first failure came, and when it was last reported: read only while {@code failures > 0}. */
    private long since;
    private long lastReported;

    OutageReport(Logger log, Duration errorAfter, Duration every) {
        this.log = log;
        this.errorAfterNanos = errorAfter.toNanos();
        this.everyNanos = every.toNanos();
    }

    /** A run failed at {@code now} with {@code reason}. */
    void failed(long now, String reason) {
        if (failures++ == 0) {
            since = now;
            lastReported = now;
            log.warnf("outbox relay paused, will retry: %s", reason);
            return;
        }
        if (now - lastReported < everyNanos) {
            log.debugf("outbox relay still paused: %s", reason);
            return;
        }
        lastReported = now;
        long seconds = Duration.ofNanos(now - since).toSeconds();
        Logger.Level level = now - since >= errorAfterNanos ? Logger.Level.ERROR : Logger.Level.WARN;
        log.logf(level, "outbox relay paused for %d s (failed runs: %d), events wait in the outbox, will retry: %s",
                seconds, failures, reason);
    }

    /** A run succeeded at {@code now}: ends the outage, if there was one. */
    void succeeded(long now) {
        if (failures == 0) {
            return;
        }
        log.infof("outbox relay resumed after %d ms (failed runs: %d); the events that waited were sent",
                Duration.ofNanos(now - since).toMillis(), failures);
        failures = 0;
    }

    /** Whether an outage is under way (for tests). */
    boolean paused() {
        return failures > 0;
    }
}
