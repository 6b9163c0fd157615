package dev.cryptopay.subscription.domain;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * When a subscription bills, all in UTC. Period {@code n} bills at the anchor (the creation instant) plus {@code n}
 * intervals, always counted from the anchor and never from the previous date, so a date clamped to a short month
 * re-aligns afterwards: an anchor of 31 January bills on 28/29 February, then 31 March; an anchor of 29 February bills
 * on 28 February in common years and on 29 February again in the next leap year. {@link LocalDateTime#plusMonths}
 * and {@link LocalDateTime#plusYears} clamp to the last valid day exactly so.
 */
public final class BillingCalendar {

    private BillingCalendar() {
    }

    /** The billing date of period {@code period} (0 = the anchor itself). */
    public static Instant date(Instant anchor, BillingInterval interval, int period) {
        LocalDateTime start = LocalDateTime.ofInstant(anchor, ZoneOffset.UTC);
        LocalDateTime due = interval == BillingInterval.MONTHLY ? start.plusMonths(period) : start.plusYears(period);
        return due.toInstant(ZoneOffset.UTC);
    }

    /** The first period at or after {@code from} whose date is not before {@code notBefore}. */
    public static int firstPeriodNotBefore(Instant anchor, BillingInterval interval, int from, Instant notBefore) {
        int period = from;
        while (date(anchor, interval, period).isBefore(notBefore)) {
            period++;
        }
        return period;
    }
}
