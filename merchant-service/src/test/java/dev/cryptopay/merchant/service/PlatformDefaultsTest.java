package dev.cryptopay.merchant.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cryptopay.merchant.domain.Account;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The default settlement anchor is the account's creation, as an RFC 3339 timestamp in UTC, whole seconds. */
class PlatformDefaultsTest {

    private static Account createdAt(OffsetDateTime at) {
        Account account = new Account();
        account.createdAt = at;
        return account;
    }

    @Test
    void theAnchorKeepsZeroSecondsAndIsInUtc() {
        // OffsetDateTime.toString would print "2026-11-24T10:22Z" here, which is not RFC 3339
        assertEquals("2026-11-24T10:22:00Z",
                PlatformDefaults.anchor(createdAt(OffsetDateTime.of(2026, 11, 24, 10, 22, 0, 0, ZoneOffset.UTC))));
        assertEquals("2026-11-24T09:22:05Z", PlatformDefaults.anchor(
                createdAt(OffsetDateTime.of(2026, 11, 24, 10, 22, 5, 987_000_000, ZoneOffset.ofHours(1)))));
    }

    @Test
    void noCreationTimeNoAnchor() {
        assertNull(PlatformDefaults.anchor(createdAt(null)));
    }
}
