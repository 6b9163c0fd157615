package dev.cryptopay.support.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The non-blocking side of {@link ViewVersion} (what the gateway's directory uses), on a clock moved by hand. */
class ViewVersionTest {

    private static final long TTL_NANOS = 1_000_000_000L;

    private final AtomicLong clock = new AtomicLong(5_000);
    private final AtomicLong tableVersion = new AtomicLong(3);
    private final AtomicInteger reads = new AtomicInteger();
    private final ViewVersion version = new ViewVersion(TTL_NANOS, () -> {
        reads.incrementAndGet();
        return tableVersion.get();
    }, clock::get);

    @Test
    void nothingIsKnownBeforeTheFirstReadAndKnownNeverReads() {
        assertEquals(ViewVersion.UNKNOWN, version.known());
        assertTrue(version.due());
        assertEquals(0, reads.get());
        assertEquals(3, version.current());
        assertEquals(3, version.known());
        assertEquals(1, reads.get());
    }

    @Test
    void theLastReadIsDueAtHalfTheLifetimeAndUnknownAtTheLifetime() {
        version.current();
        clock.addAndGet(TTL_NANOS / 2 - 1);
        assertFalse(version.due());
        clock.addAndGet(1);
        assertTrue(version.due());
        assertEquals(3, version.known(), "due, but still known: the last read is younger than the lifetime");
        clock.addAndGet(TTL_NANOS / 2 - 1);
        assertEquals(3, version.known());
        clock.addAndGet(1);
        assertEquals(ViewVersion.UNKNOWN, version.known());
        assertEquals(1, reads.get());
    }

    @Test
    void forgetMakesTheVersionUnknownUntilTheNextRead() {
        version.current();
        tableVersion.incrementAndGet(); // a change committed here
        version.forget();
        assertEquals(ViewVersion.UNKNOWN, version.known());
        assertTrue(version.due());
        clock.addAndGet(1);
        assertEquals(4, version.current());
        assertEquals(4, version.known());
    }

    @Test
    void aReadThatBeganBeforeAForgetIsNotKept() {
        AtomicReference<ViewVersion> self = new AtomicReference<>();
        ViewVersion racing = new ViewVersion(TTL_NANOS, () -> {
            long seen = tableVersion.get(); // the read sees the table before the change
            clock.addAndGet(10);
            tableVersion.incrementAndGet();
            self.get().forget(); // the change commits and is forgotten while the read is under way
            return seen;
        }, clock::get);
        self.set(racing);
        assertEquals(3, racing.current(), "the caller gets what it read");
        assertEquals(ViewVersion.UNKNOWN, racing.known(), "but the old version is not kept past the forget");
    }

    @Test
    void readNowReadsEvenWhenTheLastReadIsFreshAndKeepsWhatItRead() {
        version.current();
        tableVersion.incrementAndGet();
        clock.addAndGet(1);
        assertEquals(3, version.current(), "fresh: not read again");
        assertEquals(4, version.readNow());
        assertEquals(4, version.known());
        assertEquals(2, reads.get());
    }
}
