package dev.cryptopay.reporting.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.reporting.service.ReportClock;
import dev.cryptopay.reporting.testing.Api;
import dev.cryptopay.reporting.testing.Await;
import dev.cryptopay.reporting.testing.Events;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Known answers of the figures (README "Figures"): volume, fees with the terms of each success event, the payout of
 * the open settlement period, and the settlement periods of daily and monthly schedules. "Now" is a fixed clock.
 * Account FIG, daily periods anchored at 06:00 UTC; now = 2026-03-10T12:00Z, so the open period is
 * [03-10 06:00, 03-11 06:00):
 * <ul>
 * <li>T1 (shop) succeeded 03-09 10:00, received 100.00; MDR 2.5 % + 0.30 → 2.80, platform (deduct) 50 bp + 10 c →
 * 0.60; deducted 3.40. A refund of 20.00 completed 03-10 09:00.</li>
 * <li>T2 (shop) succeeded 03-10 07:00, received 250.555; MDR 2.9 % + 0.30 → 7.266095 + 0.30 = 7.566095 → 7.57,
 * platform (bill_separately) 100 bp + 25 c → 2.50555 + 0.25 = 2.75555 → 2.76; deducted 7.57.</li>
 * <li>T3 (kiosk) succeeded 03-10 08:00, received 40.00, no fee terms.</li>
 * <li>T4 pending and T5 cancelled (never count); a refund still broadcasting (never counts).</li>
 * </ul>
 */
@QuarkusTest
class FiguresTest {

    static final UUID FIG = UUID.randomUUID();
    static final UUID SHOP = UUID.randomUUID();
    static final UUID KIOSK = UUID.randomUUID();
    static final UUID MONTHLY = UUID.randomUUID();

    @Inject
    ReportClock clock;

    private static boolean projected;

    /** Once per class, but inside the running application (REST Assured knows its port only then). */
    @BeforeEach
    void project() {
        Api.configure();
        if (projected) {
            return;
        }
        projected = true;
        try (Events events = new Events()) {
            events.merchant(Events.merchant(FIG, SHOP, 3, "daily", "2026-01-01T06:00:00Z",
                    Instant.parse("2026-01-02T00:00:00Z")));
            events.merchant(Events.merchant(FIG, KIOSK, 2, "daily", "2026-01-01T06:00:00Z",
                    Instant.parse("2026-01-01T00:00:00Z")));
            UUID t1 = success(events, FIG, SHOP, "2026-03-09T09:00:00Z", "2026-03-09T10:00:00Z", "100.00",
                    Events.fees("0.025", "0.30", "deduct", "50", "10"));
            success(events, FIG, SHOP, "2026-03-10T06:30:00Z", "2026-03-10T07:00:00Z", "250.555",
                    Events.fees("0.029", "0.30", "bill_separately", "100", "25"));
            success(events, FIG, KIOSK, "2026-03-10T07:30:00Z", "2026-03-10T08:00:00Z", "40.00", null);
            Instant at = Instant.parse("2026-03-10T05:00:00Z");
            events.transaction("transaction.created", Events.transaction(FIG, SHOP, UUID.randomUUID(), 1, 0, 0, "0",
                    at, at));
            events.transaction("transaction.cancelled", Events.transaction(FIG, SHOP, UUID.randomUUID(), 1, -2, 0,
                    "0", at, at));
            events.refund("refund.completed", Events.refund(FIG, SHOP, t1, UUID.randomUUID(), 3, 1, "20.00", at,
                    Instant.parse("2026-03-10T09:00:00Z")));
            events.refund("refund.broadcast", Events.refund(FIG, SHOP, t1, UUID.randomUUID(), 2, 2, "5.00", at,
                    Instant.parse("2026-03-10T09:30:00Z")));

            // monthly, anchored on the 31st: periods [01-31, 02-28), [02-28, 03-31), ...
            UUID monthlyShop = UUID.randomUUID();
            events.merchant(Events.merchant(MONTHLY, monthlyShop, 1, "monthly", "2026-01-31T00:00:00Z",
                    Instant.parse("2026-01-01T00:00:00Z")));
            success(events, MONTHLY, monthlyShop, "2026-02-27T11:00:00Z", "2026-02-27T12:00:00Z", "10.00", null);
            success(events, MONTHLY, monthlyShop, "2026-02-28T00:30:00Z", "2026-02-28T01:00:00Z", "20.00", null);
            success(events, MONTHLY, monthlyShop, "2026-01-30T23:00:00Z", "2026-01-30T23:59:59Z", "5.00", null);
        }
        Await.until(() -> settlements(FIG).getInt("total") == 2 && settlements(FIG)
                .getLong("settlements[0].refundCount") == 1 && settlements(MONTHLY).getInt("total") == 3
                && "monthly".equals(settlements(MONTHLY).getString("settlementFrequency")),
                () -> "projection incomplete: " + settlements(FIG).prettify());
    }

    /** A transaction created, then successful at {@code successAt} with {@code fees} (may be null). */
    static UUID success(Events events, UUID account, UUID merchant, String createdAt, String successAt,
            String received, ObjectNode fees) {
        UUID id = UUID.randomUUID();
        Instant created = Instant.parse(createdAt);
        events.transaction("transaction.created", Events.transaction(account, merchant, id, 1, 0, 0, "0", created,
                created));
        ObjectNode success = Events.transaction(account, merchant, id, 2, 1, 1, received, created,
                Instant.parse(successAt));
        if (fees != null) {
            success.set("merchantFees", fees);
        }
        events.transaction("transaction.success", success);
        return id;
    }

    @BeforeEach
    void fixNow() {
        clock.set(Clock.fixed(Instant.parse("2026-03-10T12:00:00Z"), ZoneOffset.UTC));
    }

    @AfterEach
    void systemClock() {
        clock.set(null);
    }

    static JsonPath settlements(UUID account, Object... parameters) {
        return Api.get(account, "reporting/settlements", parameters);
    }

    static JsonPath summary(UUID account, Object... parameters) {
        return Api.get(account, "reporting/summary", parameters);
    }

    @Test
    void theSummaryOfTheWholeAccount() {
        JsonPath all = summary(FIG);
        assertDecimal("390.555", all, "totalVolumeUSD");
        assertDecimal("13.73", all, "totalFeesUSD");
        // open period: 290.555 − 7.57 deducted − 20.00 refunded
        assertDecimal("262.985", all, "pendingPayoutsUSD");
    }

    @Test
    void theSummaryByDateAndMerchant() {
        JsonPath tenth = summary(FIG, "fromDate", "2026-03-10");
        assertDecimal("290.555", tenth, "totalVolumeUSD");
        assertDecimal("10.33", tenth, "totalFeesUSD");
        JsonPath ninth = summary(FIG, "fromDate", "2026-03-09", "toDate", "2026-03-09");
        assertDecimal("100.00", ninth, "totalVolumeUSD");
        assertDecimal("3.40", ninth, "totalFeesUSD");
        JsonPath kiosk = summary(FIG, "merchantID", KIOSK.toString());
        assertDecimal("40.00", kiosk, "totalVolumeUSD");
        assertDecimal("0.00", kiosk, "totalFeesUSD");
        assertDecimal("40.00", kiosk, "pendingPayoutsUSD");
        JsonPath nobody = summary(FIG, "merchantID", UUID.randomUUID().toString());
        assertDecimal("0.00", nobody, "totalVolumeUSD");
        assertDecimal("0.00", nobody, "pendingPayoutsUSD");
    }

    @Test
    void whenTheOpenPeriodCloses_nothingIsPendingAnyMore() {
        clock.set(Clock.fixed(Instant.parse("2026-03-11T06:00:00Z"), ZoneOffset.UTC));
        assertDecimal("0.00", summary(FIG), "pendingPayoutsUSD");
        assertEquals("closed", settlements(FIG).getString("settlements[0].status"));
    }

    @Test
    void dailySettlementPeriodsReconcileThePayouts() {
        JsonPath list = settlements(FIG);
        assertEquals("daily", list.getString("settlementFrequency"));
        assertEquals("2026-01-01T06:00:00Z", list.getString("settlementAnchor"));
        assertEquals(2, list.getInt("total"));
        String open = "settlements[0].";
        assertEquals("2026-03-10T06:00:00Z", list.getString(open + "periodStart"));
        assertEquals("2026-03-11T06:00:00Z", list.getString(open + "periodEnd"));
        assertEquals("open", list.getString(open + "status"));
        assertEquals(2, list.getInt(open + "transactionCount"));
        assertDecimal("290.555", list, open + "volumeUSD");
        assertDecimal("10.33", list, open + "feesUSD");
        assertDecimal("7.57", list, open + "feesDeductedUSD");
        assertDecimal("2.76", list, open + "feesBilledSeparatelyUSD");
        assertEquals(1, list.getInt(open + "refundCount"));
        assertDecimal("20.00", list, open + "refundsUSD");
        assertDecimal("262.985", list, open + "payoutUSD");
        String closed = "settlements[1].";
        assertEquals("2026-03-09T06:00:00Z", list.getString(closed + "periodStart"));
        assertEquals("closed", list.getString(closed + "status"));
        assertEquals(1, list.getInt(closed + "transactionCount"));
        assertDecimal("100.00", list, closed + "volumeUSD");
        assertDecimal("3.40", list, closed + "feesUSD");
        assertDecimal("0.00", list, closed + "refundsUSD");
        assertDecimal("96.60", list, closed + "payoutUSD");

        // periods starting in the range only; pagination
        assertEquals(List.of("2026-03-09T06:00:00Z"), settlements(FIG, "toDate", "2026-03-10T05:59:59Z")
                .getList("settlements.periodStart"));
        assertEquals(List.of("2026-03-10T06:00:00Z"), settlements(FIG, "fromDate", "2026-03-09T06:00:01Z")
                .getList("settlements.periodStart"));
        JsonPath second = settlements(FIG, "limit", 1, "offset", 1);
        assertEquals(2, second.getInt("total"));
        assertEquals(List.of("2026-03-09T06:00:00Z"), second.getList("settlements.periodStart"));
        assertEquals(2, settlements(FIG, "offset", 5).getInt("total"));
    }

    @Test
    void monthlyPeriodsFollowTheAnchorDayAndClampAtMonthEnd() {
        JsonPath list = settlements(MONTHLY);
        assertEquals(List.of("2026-02-28T00:00:00Z", "2026-01-31T00:00:00Z", "2025-12-31T00:00:00Z"),
                list.getList("settlements.periodStart"));
        assertEquals(List.of("2026-03-31T00:00:00Z", "2026-02-28T00:00:00Z", "2026-01-31T00:00:00Z"),
                list.getList("settlements.periodEnd"));
        assertDecimal("20.00", list, "settlements[0].volumeUSD");
        assertDecimal("10.00", list, "settlements[1].volumeUSD");
        assertDecimal("5.00", list, "settlements[2].volumeUSD");
    }

    static void assertDecimal(String expected, JsonPath json, String path) {
        BigDecimal actual = json.getObject(path, BigDecimal.class);
        assertEquals(0, new BigDecimal(expected).compareTo(actual), path + ": expected " + expected + " but was "
                + actual);
    }
}
