package dev.cryptopay.support.lifecycle;

import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Whether this service is stopping, for the background jobs that log a failed run and try again at the next one
 * (expiry, refund payouts, billing retries; the outbox relay and the mail sender have a stop flag of their own and call
 * {@link #logPaused} with it).
 *
 * <p>Quarkus fires {@link ShutdownEvent} before it closes the datasources and the EntityManagerFactory, and a run in
 * progress then fails with "EntityManagerFactory is closed". Its database transaction rolls back and the next start
 * takes the work up again, so nothing is wrong; a WARN at every stop would tell operators otherwise, and teach them
 * to ignore the same WARN when it means a database that is down. So once the service is stopping such a failure is
 * logged at DEBUG (docs/decisions.md §103).
 *
 * <p>The consumers' {@code BatchRetry} waits on it between attempts at storing a batch, so that the stop ends a wait
 * under way (docs/decisions.md §80).
 */
@Singleton
public class Stopping {

    private final CountDownLatch stopping = new CountDownLatch(1);

    /** Before the service's own observers of the stop: what they interrupt sees that the service is stopping. */
    void onStop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        begin();
    }

    /** The service begins to stop (Quarkus' {@link ShutdownEvent}; a unit test calls it directly). */
    public void begin() {
        stopping.countDown();
    }

    /** True from the moment the service begins to stop. */
    public boolean now() {
        return stopping.getCount() == 0;
    }

    /**
     * Waits until the service begins to stop or {@code millis} have passed, whichever comes first.
     *
     * @return true if the service is stopping
     */
    public boolean await(long millis) throws InterruptedException {
        return stopping.await(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Logs a background run that failed and is retried later: at WARN while the service runs, at DEBUG once it is
     * stopping (see above).
     */
    public void paused(Logger log, String format, Object... params) {
        logPaused(log, now(), format, params);
    }

    /** The same, for a job that knows by itself whether its service is stopping. */
    public static void logPaused(Logger log, boolean stopping, String format, Object... params) {
        log.logf(stopping ? Logger.Level.DEBUG : Logger.Level.WARN, format, params);
    }
}
