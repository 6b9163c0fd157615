package dev.cryptopay.events;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochRandomGenerator;
import java.util.UUID;

/**
 * Ids for the rows every payment adds: transactions, payment requests, transfers, refunds' legs, billing payments,
 * events (the outbox's rows and what each consumer keeps per event) and webhook deliveries (docs/decisions.md §128).
 *
 * <p>They are UUIDs of version 7 (RFC 9562): the first 48 bits are the Unix time in milliseconds, 74 of the other 80
 * are random, drawn afresh for each id. A B-tree index on such ids takes each new one at its right edge, as it takes
 * a sequence, where a random (version 4) id lands on any of its pages: with millions of rows that keeps the pages
 * being written few and in memory, and after each checkpoint PostgreSQL logs a full copy of each page only the first
 * time it changes, which for random ids is nearly every insert into every such index. What an id tells is its
 * creation time, which the API's {@code createdAt} gives anyway; its 74 random bits keep it as hard to guess as a
 * random id made that millisecond.
 *
 * <p>FasterXML's generator for this draws the random bits of every id from a {@code SecureRandom}. Its other version 7
 * generator counts up from one random value within a millisecond instead, so whoever holds one id could work out the
 * next ones made in that millisecond; it is not used. Ids made in one millisecond therefore come in any order; only
 * their milliseconds are ordered, which is all an index needs to take them at its right edge.
 *
 * <p>Here in event-contracts, the lowest module, because {@link CloudEvent#of} draws event ids from it. Accounts,
 * merchants, keys and the other rows that do not grow with payments keep random ids.
 */
public final class TimeOrderedIds {

    private static final TimeBasedEpochRandomGenerator GENERATOR = Generators.timeBasedEpochRandomGenerator();

    private TimeOrderedIds() {
    }

    /** A new version 7 id. */
    public static UUID next() {
        return GENERATOR.generate();
    }

    /** The Unix time in milliseconds a version 7 id carries. */
    public static long epochMillis(UUID id) {
        if (id.version() != 7) {
            throw new IllegalArgumentException("not a version 7 UUID: " + id);
        }
        return id.getMostSignificantBits() >>> 16;
    }
}
