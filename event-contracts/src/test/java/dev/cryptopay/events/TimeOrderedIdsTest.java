package dev.cryptopay.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTest {

    /** RFC 9562, appendix A.6: the example version 7 id, made at 2022-02-22 19:22:22 UTC (1645557742000 ms). */
    @Test
    void readsTheTimeOfTheRfcsExample() {
        UUID example = UUID.fromString("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
        assertEquals(1645557742000L, TimeOrderedIds.epochMillis(example));
    }

    @Test
    void idsAreVersion7WithTheRfcVariantAndTheTimeTheyWereMade() {
        long before = System.currentTimeMillis();
        UUID id = TimeOrderedIds.next();
        long after = System.currentTimeMillis();
        assertEquals(7, id.version(), id.toString());
        assertEquals(2, id.variant(), id.toString());
        long made = TimeOrderedIds.epochMillis(id);
        assertTrue(before <= made && made <= after, before + " <= " + made + " <= " + after);
    }

    /**
     * Many ids share a millisecond here: their milliseconds never go back, no id comes twice, and ids of one
     * millisecond are not steps of a counter. Two ids a counter made share their first 64 bits and differ by a few
     * units in the rest; two with fresh random bits do both, to within 2^32, with a chance of about 2^-41.
     */
    @Test
    void idsFollowTheClockAndShareNoStepWithinAMillisecond() {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            ids.add(TimeOrderedIds.next());
        }
        assertEquals(ids.size(), new HashSet<>(ids).size(), "no id twice");
        int sameMillisecond = 0;
        for (int i = 1; i < ids.size(); i++) {
            UUID previous = ids.get(i - 1);
            UUID id = ids.get(i);
            long previousMillis = TimeOrderedIds.epochMillis(previous);
            long millis = TimeOrderedIds.epochMillis(id);
            assertTrue(previousMillis <= millis, previous + " before " + id);
            if (previousMillis == millis) {
                sameMillisecond++;
                long step = Math.abs(id.getLeastSignificantBits() - previous.getLeastSignificantBits());
                assertTrue(id.getMostSignificantBits() != previous.getMostSignificantBits() || step > (1L << 32),
                        previous + " and " + id + " are steps of a counter");
            }
        }
        assertTrue(sameMillisecond > 1_000, "the test made many ids within a millisecond: " + sameMillisecond);
    }

    @Test
    void aRandomIdHasNoTimeToRead() {
        assertThrows(IllegalArgumentException.class, () -> TimeOrderedIds.epochMillis(UUID.randomUUID()));
    }
}
