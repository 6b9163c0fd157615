package dev.cryptopay.reporting.service;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;

/** "Now" for the figures (which settlement period is open); tests replace the clock instead of sleeping. */
@ApplicationScoped
public class ReportClock {

    private volatile Clock clock = Clock.systemUTC();

    public Instant now() {
        return clock.instant();
    }

    /** For tests: a fixed or offset clock; {@code null} restores the system clock. */
    public void set(Clock replacement) {
        clock = replacement == null ? Clock.systemUTC() : replacement;
    }
}
