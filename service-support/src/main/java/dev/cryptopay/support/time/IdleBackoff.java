package dev.cryptopay.support.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The schedule of a job that has nothing to do while nothing is open (docs/decisions.md §70, §74): its 1 s tick runs
 * the job only once the current delay has passed since the last run started; the delay doubles after every run that
 * found nothing open, up to a cap, and is back at the interval after a run that found something open or a {@link #wake}
 * (work opened in this replica). A wake that arrives while a run is under way counts: that run does not back off.
 * <p>
 * The delay counts from the start of the last run, not its end: a job at its interval runs at every tick even when
 * its runs take a while (counted from the end, a run of more than a tenth of the interval made it every other tick).
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

    /**
     * Whether a tick should run the job now: the delay has passed since the last run started (a tenth of the interval
     * early, so ticks do not just miss it).
     */
    public boolean due() {
        return System.nanoTime() - lastRunStarted >= delayNanos - intervalNanos / 10;
    }

    /**
     * One tick of a scheduled job: runs {@code run} if it is {@link #due}, and then backs off when {@code run} answered
     * that it found nothing open. A run that throws counts as not idle (the next comes after the interval), and the
     * exception goes on to the caller. Answers whether it ran.
     */
    public boolean runIfDue(BooleanSupplier run) {
        if (!due()) {
            return false;
        }
        long started = starting();
        boolean idle = false;
        try {
            idle = run.getAsBoolean();
        } finally {
            ran(idle, started);
        }
        return true;
    }

    /** Called as a run starts (the next run's delay counts from now); pass what it answers to {@link #ran}. */
    public long starting() {
        lastRunStarted = System.nanoTime();
        return wakes.get();
    }

    /** A run ended: {@code idle} when it found nothing open; {@code started} is what {@link #starting} answered. */
    public void ran(boolean idle, long started) {
        boolean wokenMeanwhile = wakes.get() != started;
        delayNanos = idle && !wokenMeanwhile ? Math.min(maxNanos, delayNanos * 2) : intervalNanos;
    }

    /**
     * Something was opened: back to the interval from the next tick on. Answers whether the job was backing off, i.e.
     * whether it should run now rather than at its next tick (under load it is not: no extra runs per opening).
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
