package dev.cryptopay.events;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import java.util.UUID;

/**
 * Ids for the rows every payment adds: transactions, payment requests, transfers, refunds' legs, billing payments,
 * events (the outbox's rows and what each consumer keeps per event) and webhook deliveries (docs/decisions.md §128).
 *
 * <p>They are UUIDs of version 7 (RFC 9562): the first 48 bits are the Unix time in milliseconds, 74 of the other 80
 * are random. A B-tree index on such ids takes each new one at its right edge, as it takes a sequence, where a random
 * (version 4) id lands on any of its pages: with millions of rows that keeps the pages being written few and in
 * memory, and after each checkpoint PostgreSQL logs a full copy of each page only the first time it changes, which for
 * random ids is nearly every insert into every such index. The ids stay unguessable (74 random bits within a
 * millisecond); what they tell beyond that is their creation time, which the API's {@code createdAt} gives anyway.
 *
 * <p>Here in event-contracts, the lowest module, because {@link CloudEvent#of} draws event ids from it. Within one
 * JVM the ids increase strictly while the clock does not go back, also within a millisecond (FasterXML's generator
 * counts up there, under a lock, from a value drawn from a {@code SecureRandom}). Accounts, merchants, keys and the
 * other rows that do not grow with payments keep random ids.
 */
public final class TimeOrderedIds {

    private static final TimeBasedEpochGenerator GENERATOR = Generators.timeBasedEpochGenerator();

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
