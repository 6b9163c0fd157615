package dev.cryptopay.transaction.domain;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/** Timestamps at the precision PostgreSQL keeps (microseconds), so events and later reads show the same time. */
public final class Clock {

    private Clock() {
    }

    public static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }
}
