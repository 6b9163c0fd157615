package dev.cryptopay.reporting.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Known answers of the settlement periods (README "Figures"). */
class SettlementScheduleTest {

    @Test
    void fixedPeriodsCountFromTheAnchorBothWays() {
        SettlementSchedule daily = SettlementSchedule.of("daily", Instant.parse("2026-01-01T06:00:00Z"));
        assertEquals(0, daily.period(Instant.parse("2026-01-01T06:00:00Z")));
        assertEquals(0, daily.period(Instant.parse("2026-01-02T05:59:59.999999Z")));
        assertEquals(1, daily.period(Instant.parse("2026-01-02T06:00:00Z")));
        assertEquals(-1, daily.period(Instant.parse("2026-01-01T05:59:59Z")));
        assertEquals(Instant.parse("2026-03-10T06:00:00Z"), daily.start(daily.period(Instant.parse(
                "2026-03-10T12:00:00Z"))));
        SettlementSchedule sixHourly = SettlementSchedule.of("six_hourly", Instant.parse("2026-01-01T01:00:00Z"));
        assertEquals(Instant.parse("2026-03-10T07:00:00Z"), sixHourly.start(sixHourly.period(Instant.parse(
                "2026-03-10T12:59:00Z"))));
        SettlementSchedule biweekly = SettlementSchedule.of("biweekly", Instant.parse("2026-01-05T00:00:00Z"));
        assertEquals(Instant.parse("2026-01-19T00:00:00Z"), biweekly.end(0));
        SettlementSchedule hourly = SettlementSchedule.of("hourly", Instant.parse("2026-01-01T00:30:00Z"));
        assertEquals(Instant.parse("2026-01-01T00:30:00Z"), hourly.start(hourly.period(Instant.parse(
                "2026-01-01T01:29:59Z"))));
        SettlementSchedule weekly = SettlementSchedule.of("weekly", Instant.parse("2026-01-05T00:00:00Z"));
        assertEquals(Instant.parse("2025-12-29T00:00:00Z"), weekly.start(weekly.period(Instant.parse(
                "2026-01-04T23:00:00Z"))));
    }

    @Test
    void monthlyPeriodsKeepTheAnchorDayAndClampShortMonths() {
        SettlementSchedule monthly = SettlementSchedule.of("monthly", Instant.parse("2026-01-31T00:00:00Z"));
        assertEquals(Instant.parse("2026-02-28T00:00:00Z"), monthly.start(1));
        assertEquals(Instant.parse("2026-03-31T00:00:00Z"), monthly.start(2));
        assertEquals(Instant.parse("2026-04-30T00:00:00Z"), monthly.start(3));
        assertEquals(0, monthly.period(Instant.parse("2026-02-27T23:59:59Z")));
        assertEquals(1, monthly.period(Instant.parse("2026-02-28T00:00:00Z")));
        assertEquals(-1, monthly.period(Instant.parse("2026-01-30T12:00:00Z")));
        assertEquals(12, monthly.period(Instant.parse("2027-01-31T00:00:00Z")));
    }

    @Test
    void withoutASchedule_dailyAtMidnightUtc() {
        SettlementSchedule none = SettlementSchedule.of(null, null);
        assertEquals("daily", none.frequency());
        assertEquals(Instant.parse("2026-03-10T00:00:00Z"), none.start(none.period(Instant.parse(
                "2026-03-10T23:00:00Z"))));
    }
}
