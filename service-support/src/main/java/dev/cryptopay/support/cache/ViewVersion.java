package dev.cryptopay.support.cache;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The version of one of this replica's view tables, as last read: a trigger bumps it at the commit of every change to
 * the table (docs/decisions.md §106), so a value read from the table while the version was {@code v} is still current
 * as long as the version is still {@code v}. A {@link ShortLivedCache} built with one keeps its values for as long as
 * that holds, checked no longer than the time to live ago, instead of forgetting each value a time to live after it was
 * read: one read of the version every half time to live (while values are asked for) keeps every value of the table
 * in memory, however rarely each is asked for, and another replica's change still applies here within the time to
 * live.
 *
 * <p>{@link #current} reads the version through the given reader, in the caller's transaction, when the last read is
 * older than half the time to live: one caller at a time while it is younger than the time to live (the others go on
 * with the last read), every caller once it is older. A caller that must not wait for the database (the gateway's event
 * loop) uses {@link #known} and {@link #due} instead, and has {@link #current} called elsewhere when it is due.
 * {@link #forget} drops the last read once this replica has committed a change of the table: the next caller reads the
 * version again, and a read that began before the forget is never kept.
 */
public final class ViewVersion {

    /**
     * What {@link #known} answers when no read of the version is younger than the time to live; also the version of
     * the last read before the first read and after a {@link #forget}.
     */
    public static final long UNKNOWN = Long.MIN_VALUE;

    /** A version as read, and when the read began: the table had that version at some moment after {@code at}. */
    private record Read(long version, long at) {
    }

    private final long ttlNanos;
    private final LongSupplier reader;
    private final LongSupplier nanoClock;
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile Read last;

    /** {@code reader} reads the version from the database (in the caller's transaction). */
    public ViewVersion(long ttlNanos, LongSupplier reader) {
        this(ttlNanos, reader, System::nanoTime);
    }

    ViewVersion(long ttlNanos, LongSupplier reader, LongSupplier nanoClock) {
        this.ttlNanos = ttlNanos;
        this.reader = reader;
        this.nanoClock = nanoClock;
        this.last = new Read(UNKNOWN, nanoClock.getAsLong() - 1); // any read begins later
    }

    /** The last read version if that read began less than the time to live ago, else {@link #UNKNOWN}; never reads. */
    public long known() {
        Read known = last;
        return nanoClock.getAsLong() - known.at() < ttlNanos ? known.version() : UNKNOWN;
    }

    /** Whether {@link #current} would read the version now (the last read is older than half the time to live). */
    public boolean due() {
        Read known = last;
        return known.version() == UNKNOWN || nanoClock.getAsLong() - known.at() >= ttlNanos / 2;
    }

    /**
     * Drops the last read: call it once a change of the table made here has committed, so the next caller reads the
     * version again (and sees the change). A read that was under way meanwhile is not kept.
     */
    public synchronized void forget() {
        last = new Read(UNKNOWN, nanoClock.getAsLong());
    }

    /** The table's version as of no longer than the time to live ago (read now when the last read is too old). */
    public long current() {
        Read known = last;
        long age = nanoClock.getAsLong() - known.at();
        if (known.version() != UNKNOWN && age < ttlNanos / 2) {
            return known.version();
        }
        if (known.version() != UNKNOWN && age < ttlNanos) {
            if (!reading.compareAndSet(false, true)) {
                return known.version(); // another caller is reading it now
            }
            try {
                return read();
            } finally {
                reading.set(false);
            }
        }
        return read();
    }

    /**
     * Reads the version now, in the caller's transaction, and keeps it unless a read that began later (or a forget) came
     * first. A value read from the table after this in the same transaction is at least as new as the version returned,
     * and it is that version exactly unless a change committed in between: what a stamp should be when a value that is
     * not current would cost more than the read (a value stamped with an older version is read again once the newer one
     * is known).
     */
    public long readNow() {
        return read();
    }

    private long read() {
        long began = nanoClock.getAsLong();
        long version = reader.getAsLong();
        keep(new Read(version, began));
        return version;
    }

    private synchronized void keep(Read read) {
        // A read that began later saw the table at a later moment (commits are seen in order), whatever it returned;
        // one that began before a forget may not have seen the change that caused it.
        if (read.at() - last.at() > 0) {
            last = read;
        }
    }
}
