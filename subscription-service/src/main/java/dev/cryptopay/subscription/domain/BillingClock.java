package dev.cryptopay.subscription.domain;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The service's time: the system clock plus an offset that is zero in production. Tests move it forward (the
 * Quarkus tests directly, the system tests through the sandbox-only operator endpoint, see ClockResource) so that
 * billing a month or a retry schedule of days later never means sleeping. The offset lives in this instance's memory.
 * Times are kept at microsecond precision, as PostgreSQL stores them.
 */
@ApplicationScoped
public class BillingClock {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    public Instant instant() {
        return Instant.now().plus(offset.get()).truncatedTo(ChronoUnit.MICROS);
    }

    public OffsetDateTime now() {
        return instant().atOffset(ZoneOffset.UTC);
    }

    public Duration offset() {
        return offset.get();
    }

    public void advance(Duration by) {
        offset.updateAndGet(current -> current.plus(by));
    }

    public void reset() {
        offset.set(Duration.ZERO);
    }
}
