package dev.cryptopay.subscription.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Known answers of the billing calendar (all UTC): month ends, leap years, year ends. */
class BillingCalendarTest {

    @ParameterizedTest(name = "{0} + {2} x {1} = {3}")
    @CsvSource({
            // month end: clamped, then re-aligned to the anchor day
            "2025-01-31T10:15:30Z, MONTHLY, 0, 2025-01-31T10:15:30Z",
            "2025-01-31T10:15:30Z, MONTHLY, 1, 2025-02-28T10:15:30Z",
            "2025-01-31T10:15:30Z, MONTHLY, 2, 2025-03-31T10:15:30Z",
            "2025-01-31T10:15:30Z, MONTHLY, 3, 2025-04-30T10:15:30Z",
            "2025-01-31T10:15:30Z, MONTHLY, 4, 2025-05-31T10:15:30Z",
            "2024-01-31T00:00:00Z, MONTHLY, 1, 2024-02-29T00:00:00Z",
            "2024-01-31T00:00:00Z, MONTHLY, 2, 2024-03-31T00:00:00Z",
            "2025-01-30T23:59:59Z, MONTHLY, 1, 2025-02-28T23:59:59Z",
            "2025-01-30T23:59:59Z, MONTHLY, 2, 2025-03-30T23:59:59Z",
            "2025-03-31T12:00:00Z, MONTHLY, 1, 2025-04-30T12:00:00Z",
            "2025-03-31T12:00:00Z, MONTHLY, 2, 2025-05-31T12:00:00Z",
            "2025-08-31T12:00:00Z, MONTHLY, 6, 2026-02-28T12:00:00Z",
            "2027-08-31T12:00:00Z, MONTHLY, 6, 2028-02-29T12:00:00Z",
            // year end
            "2025-12-31T23:30:00Z, MONTHLY, 1, 2026-01-31T23:30:00Z",
            "2025-12-31T23:30:00Z, MONTHLY, 2, 2026-02-28T23:30:00Z",
            "2025-12-15T08:00:00Z, MONTHLY, 1, 2026-01-15T08:00:00Z",
            "2025-11-30T08:00:00Z, MONTHLY, 3, 2026-02-28T08:00:00Z",
            "2025-01-15T08:00:00Z, MONTHLY, 12, 2026-01-15T08:00:00Z",
            "2025-01-15T08:00:00Z, MONTHLY, 25, 2027-02-15T08:00:00Z",
            // yearly: 29 February falls back to the 28th in common years and comes back in leap years
            "2024-02-29T09:00:00Z, YEARLY, 1, 2025-02-28T09:00:00Z",
            "2024-02-29T09:00:00Z, YEARLY, 2, 2026-02-28T09:00:00Z",
            "2024-02-29T09:00:00Z, YEARLY, 3, 2027-02-28T09:00:00Z",
            "2024-02-29T09:00:00Z, YEARLY, 4, 2028-02-29T09:00:00Z",
            "2096-02-29T09:00:00Z, YEARLY, 4, 2100-02-28T09:00:00Z",
            "2096-02-29T09:00:00Z, YEARLY, 8, 2104-02-29T09:00:00Z",
            "2025-12-31T23:59:59Z, YEARLY, 1, 2026-12-31T23:59:59Z",
            "2025-03-01T00:00:00Z, YEARLY, 1, 2026-03-01T00:00:00Z"
    })
    void billsOnTheAnchorDayClampedToShortMonths(String anchor, BillingInterval interval, int period,
            String expected) {
        assertEquals(Instant.parse(expected), BillingCalendar.date(Instant.parse(anchor), interval, period));
    }

    @ParameterizedTest(name = "first period of {0} not before {2} from {3} = {4}")
    @CsvSource({
            "2025-01-31T10:00:00Z, MONTHLY, 2025-01-31T10:00:00Z, 0, 0",
            "2025-01-31T10:00:00Z, MONTHLY, 2025-01-31T10:00:01Z, 0, 1",
            "2025-01-31T10:00:00Z, MONTHLY, 2025-02-28T10:00:00Z, 1, 1",
            "2025-01-31T10:00:00Z, MONTHLY, 2025-05-01T00:00:00Z, 1, 4",
            "2025-01-31T10:00:00Z, MONTHLY, 2025-03-01T00:00:00Z, 3, 3",
            "2024-02-29T09:00:00Z, YEARLY, 2027-06-01T00:00:00Z, 1, 4"
    })
    void aResumedSubscriptionSkipsThePeriodsOfItsPause(String anchor, BillingInterval interval, String notBefore,
            int from, int expected) {
        assertEquals(expected, BillingCalendar.firstPeriodNotBefore(Instant.parse(anchor), interval, from,
                Instant.parse(notBefore)));
    }
}
