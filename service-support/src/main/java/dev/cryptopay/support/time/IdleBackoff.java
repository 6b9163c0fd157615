package dev.cryptopay.support.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pace of a job that has nothing to do while nothing is open (docs/decisions.md §70, §74; {@link PacedJob} runs
 * it): the next run is due once the current delay has passed since the last run started; the delay doubles after every
 * run that found nothing open, up to a cap, and is back at the interval after a run that found something open or a
 * {@link #wake} (work opened in this replica). A wake that arrives while a run is under way counts: that run does not
 * back off.
 * <p>
 * The delay counts from the start of the last run, not its end: a job at its interval keeps its pace even when its runs
 * take a while.
 * <p>
 * A run that found nothing to do now but knows when its next work falls due (expiry: the earliest expiration of what
 * is open) says so with {@link #ran(boolean, long, long)}: the next run then comes at that moment, no sooner than the
 * interval and no later than the cap, instead of every interval until then (docs/decisions.md §126).
 */
public final class IdleBackoff {

    private final long intervalNanos;
    private final long maxNanos;
    private final AtomicLong wakes = new AtomicLong();
    private volatile long delayNanos;
    private volatile long lastRunStarted = System.nanoTime();

    public IdleBackoff(Duration interval, Duration max) {
        this.intervalNanos = Math.max(1, interval.toNanos());
        this.maxNanos = Math.max(intervalNanos, max.toNanos());
        this.delayNanos = intervalNanos;
    }

    /** How long until the delay has passed since the last run started (zero when it has). */
    public long nanosUntilDue() {
        return Math.max(0, lastRunStarted + delayNanos - System.nanoTime());
    }

    /** Called as a run starts (the next run's delay counts from now); pass what it answers to {@link #ran}. */
    public long starting() {
        lastRunStarted = System.nanoTime();
        return wakes.get();
    }

    /** A run ended: {@code idle} when it found nothing open; {@code started} is what {@link #starting} answered. */
    public void ran(boolean idle, long started) {
        ran(idle, started, NOTHING_DUE);
    }

    /** What {@link #ran(boolean, long, long)} is told when the run knows of no work falling due later. */
    public static final long NOTHING_DUE = Long.MIN_VALUE;

    /**
     * A run ended that found nothing to do now and work due at {@code dueAt} ({@link System#nanoTime}; {@link
     * #NOTHING_DUE} when it knows of none): the next run comes then, within the interval and the cap, counted from this
     * run's start. A wake during the run, or a run that was not idle, keeps the job at its interval as before.
     */
    public void ran(boolean idle, long started, long dueAt) {
        boolean wokenMeanwhile = wakes.get() != started;
        if (!idle || wokenMeanwhile) {
            delayNanos = intervalNanos;
        } else if (dueAt == NOTHING_DUE) {
            delayNanos = Math.min(maxNanos, delayNanos * 2);
        } else {
            delayNanos = Math.clamp(dueAt - lastRunStarted, intervalNanos, maxNanos);
        }
    }

    /**
     * Something was opened: back to the interval. Answers whether the job was backing off, i.e. whether its next run
     * should come sooner than planned (under load it is not: no extra runs per opening).
     */
    public boolean wake() {
        wakes.incrementAndGet();
        boolean backingOff = delayNanos > intervalNanos;
        delayNanos = intervalNanos;
        return backingOff;
    }

    /** The current delay between runs. */
    public Duration delay() {
        return Duration.ofNanos(delayNanos);
    }
}
