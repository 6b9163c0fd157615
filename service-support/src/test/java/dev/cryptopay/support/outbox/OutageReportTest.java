package dev.cryptopay.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.CapturedLog;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.logmanager.Level;
import org.junit.jupiter.api.Test;

/** The relay's outage report (docs/decisions.md §127), on a clock the test moves. */
class OutageReportTest {

    private static final String CATEGORY = "test.outage-report";
    private static final long SECOND = 1_000_000_000L;

    /** An ERROR after 5 minutes, a line a minute, as the relay's defaults. */
    private static OutageReport report() {
        return new OutageReport(Logger.getLogger(CATEGORY), Duration.ofMinutes(5), Duration.ofMinutes(1));
    }

    @Test
    void oneWarningPerOutageAMinuteApartAnErrorAfterTheLimitAndOneLineWhenItEnds() {
        OutageReport report = report();
        long t0 = 1_000 * SECOND;
        try (CapturedLog log = CapturedLog.of(CATEGORY).level(Level.INFO)) {
            report.succeeded(t0 - SECOND);
            assertEquals(List.of(), log.lines(), "a success with no outage says nothing");

            report.failed(t0, "broker down");
            for (int s = 1; s < 60; s++) {
                report.failed(t0 + s * SECOND, "broker down");
            }
            assertEquals(List.of("WARN outbox relay paused, will retry: broker down"), log.lines(),
                    "a minute of failing runs, one every second, is one warning");

            report.failed(t0 + 60 * SECOND, "broker down");
            report.failed(t0 + 61 * SECOND, "broker down");
            report.failed(t0 + 299 * SECOND, "broker down");
            report.failed(t0 + 300 * SECOND, "still down");
            report.failed(t0 + 330 * SECOND, "still down");
            report.failed(t0 + 360 * SECOND, "still down");
            assertTrue(report.paused());
            report.succeeded(t0 + 362_500_000_000L);
            report.succeeded(t0 + 363 * SECOND);
            assertFalse(report.paused());
            assertEquals(List.of(
                    "WARN outbox relay paused, will retry: broker down",
                    "WARN outbox relay paused for 60 s (failed runs: 61), events wait in the outbox, will retry: "
                            + "broker down",
                    "WARN outbox relay paused for 299 s (failed runs: 63), events wait in the outbox, will retry: "
                            + "broker down",
                    "ERROR outbox relay paused for 360 s (failed runs: 66), events wait in the outbox, will retry: "
                            + "still down",
                    "INFO outbox relay resumed after 362500 ms (failed runs: 66); the events that waited were sent"),
                    log.lines());
        }
    }

    @Test
    void aStallOfASecondIsOneWarningAndOneLineWhenItEndsAndTheNextOutageStartsAfresh() {
        OutageReport report = report();
        try (CapturedLog log = CapturedLog.of(CATEGORY).level(Level.INFO)) {
            report.failed(5 * SECOND, "Disconnected from node 1 due to timeout");
            report.succeeded(6 * SECOND);
            report.failed(500 * SECOND, "again");
            report.failed(501 * SECOND, "again");
            report.succeeded(502 * SECOND);
            assertEquals(List.of(
                    "WARN outbox relay paused, will retry: Disconnected from node 1 due to timeout",
                    "INFO outbox relay resumed after 1000 ms (failed runs: 1); the events that waited were sent",
                    "WARN outbox relay paused, will retry: again",
                    "INFO outbox relay resumed after 2000 ms (failed runs: 2); the events that waited were sent"),
                    log.lines(), "the second outage neither escalates nor counts the first one's runs");
        }
    }
}
