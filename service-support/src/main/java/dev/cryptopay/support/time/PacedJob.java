package dev.cryptopay.support.time;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.ManagedContext;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Runs one background job on a thread of its own, at the pace of an {@link IdleBackoff}: the next run is set for the
 * moment the backoff's delay has passed since the last run started, so a job backing off wakes its thread once per
 * delay (up to 30 s) and nothing else wakes for it (docs/decisions.md §105).
 *
 * <p>Why not a 1 s {@code @Scheduled} tick that asks the backoff whether it is due, as these jobs had: Quarkus' simple
 * scheduler looks at its triggers once a second and hands every trigger that fires to a worker thread, which then
 * completes on the event loop, before any skip predicate or the job itself can decline. Each backing-off job so cost
 * three thread wake-ups a second in an idle service. A delay that changes from run to run cannot be said with
 * {@code @Scheduled}; the JDK's {@link ScheduledThreadPoolExecutor} (one thread) does the timing here, and this class
 * only keeps one timed run pending and merges the requests for an early one.
 *
 * <p>Two kinds of run: the <em>timed</em> one, at the backoff's pace, and one asked for with {@link #runSoon} (work
 * committed in this replica that should not wait for the pace). Either counts as a run of the backoff, so the next
 * timed run is set from its start, and either serves every early request made before it began: a timed run that begins
 * after such a request takes its place instead of running the job a second time. Runs never overlap. A run's answer
 * says whether it found nothing to do (the delay then doubles, up to the backoff's cap); a run that throws is logged
 * and counts as not idle. Like a {@code @Scheduled} method, a run has a CDI request context of its own. An idle run
 * that knows when its next work falls due calls {@link #dueIn} before it answers: the next timed run comes then (within
 * the interval and the cap) instead of at the doubled delay (docs/decisions.md §126).
 */
public final class PacedJob {

    /** One run of the job. */
    @FunctionalInterface
    public interface Run {
        /**
         * Does the work; answers true when it found nothing to do (nothing open, nothing sent).
         *
         * @param timed true for a run at the backoff's pace, false for one asked for with {@link #runSoon}
         */
        boolean run(boolean timed);
    }

    private static final Logger LOG = Logger.getLogger(PacedJob.class);

    private final String name;
    private final IdleBackoff backoff;
    private final Run job;
    private final ScheduledThreadPoolExecutor thread;
    // Guarded by this. The timed run pending, and its generation: a timed run whose generation is no longer the
    // current one was replaced after it had begun to fire (cancel cannot stop it then) and does nothing.
    private ScheduledFuture<?> timed;
    private long generation;
    // Guarded by this. The early runs asked for (each request queues one unless an earlier one still waits) and how
    // many of them a run that began afterwards has served; a queued early run already served does nothing.
    private long soonAsked;
    private long soonServed;
    private boolean started;
    private volatile boolean stopped;
    // Set by the run under way through dueIn (on this job's thread), read as it ends.
    private volatile long dueAt = IdleBackoff.NOTHING_DUE;

    public PacedJob(String name, IdleBackoff backoff, Run job) {
        this.name = name;
        this.backoff = backoff;
        this.job = job;
        this.thread = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name(name).daemon().factory());
        // A replaced timed run leaves the queue at once instead of waiting there for its time (up to the cap), and
        // nothing queued runs after stop().
        thread.setRemoveOnCancelPolicy(true);
        thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Sets the first timed run {@code delay} from now (a service calls it once it has started). */
    public synchronized void start(Duration delay) {
        if (!stopped && !started) {
            started = true;
            setTimed(delay.toNanos());
        }
    }

    /**
     * Work was opened in this replica: the backoff is back at its interval, and a job that was backing off runs within
     * one interval of its last run (so at once, when that was longer ago), not at the end of its longer delay. A job
     * already at its interval keeps its time: under load a wake costs no extra run. Answers whether the job was
     * backing off.
     */
    public boolean wake() {
        boolean wasBackingOff = backoff.wake();
        if (wasBackingOff) {
            retime();
        }
        return wasBackingOff;
    }

    /** Runs the job as soon as its thread is free, whatever the pace; requests made before that run begins merge. */
    public void runSoon() {
        runSoon(Duration.ZERO);
    }

    /** The same, {@code after} from now at the earliest (a linger that lets more work gather into the run). */
    public void runSoon(Duration after) {
        long request;
        synchronized (this) {
            if (stopped || soonAsked > soonServed) {
                return; // an early run still waits to begin: it serves this request too
            }
            request = ++soonAsked;
        }
        try {
            thread.schedule(() -> run(false, request), after.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // stopped meanwhile: nothing runs any more
        }
    }

    /**
     * How long {@link #stop} waits for a run under way: a run is a few database transactions (a batch of expiries, of
     * outbox events), well under a second; one that takes longer is cut off by the stop as before.
     */
    static final Duration STOP_WAIT = Duration.ofSeconds(5);

    /**
     * No run begins after this; one under way finishes, and the stop waits for it up to {@link #STOP_WAIT} (it is not
     * interrupted in the middle of a statement). A service stops its jobs from its {@code ShutdownEvent} observers,
     * before Quarkus closes the datasources: without the wait a run still committing met the closed
     * EntityManagerFactory, and the transaction manager logged a WARN for its rollback (docs/decisions.md §121).
     */
    public void stop() {
        synchronized (this) {
            stopped = true;
            thread.shutdown();
        }
        // Outside the lock: a run ends by taking it (its next timed run is set then, and refused).
        try {
            if (!thread.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.infof("%s: a run still under way after %d s of the stop; the stop goes on without it", name,
                        STOP_WAIT.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Further than this a due time changes nothing (the cap is shorter); the bound keeps the nanoseconds in range. */
    private static final Duration DUE_BOUND = Duration.ofDays(1);

    /**
     * Called by a run on this job's thread: it found nothing to do now, and work falls due in {@code due} (zero or less
     * when already due). The next timed run comes then, no sooner than the interval and no later than the cap, when the
     * run answers idle; a run that answers not idle stays at the interval anyway.
     */
    public void dueIn(Duration due) {
        Duration bounded = due.isNegative() ? Duration.ZERO : due.compareTo(DUE_BOUND) > 0 ? DUE_BOUND : due;
        dueAt = System.nanoTime() + bounded.toNanos();
    }

    /** True once {@link #stop} was called: the service is stopping (a run under way may use it to end early). */
    public boolean stopped() {
        return stopped;
    }

    /** The backoff's current delay between timed runs. */
    public Duration delay() {
        return backoff.delay();
    }

    /** One run; {@code ticket} is the generation of a timed run, the request number of an early one. */
    private void run(boolean isTimed, long ticket) {
        synchronized (this) {
            if (stopped) {
                return;
            }
            if (isTimed) {
                if (ticket != generation) {
                    return;
                }
                timed = null;
            } else if (ticket <= soonServed) {
                return; // a run that began after this request served it
            }
            soonServed = soonAsked;
        }
        long wakesBefore = backoff.starting();
        dueAt = IdleBackoff.NOTHING_DUE;
        boolean idle = false;
        ArcContainer container = Arc.container(); // none in a plain unit test of this class
        ManagedContext requestContext = container == null ? null : container.requestContext();
        if (requestContext != null) {
            requestContext.activate();
        }
        try {
            idle = job.run(isTimed);
        } catch (RuntimeException e) {
            LOG.warnf(e, "%s: the run failed, the next one comes after the interval", name);
        } finally {
            if (requestContext != null) {
                requestContext.terminate();
            }
            backoff.ran(idle, wakesBefore, dueAt);
            retime();
        }
    }

    /** Sets the timed run for when the backoff's delay has passed since the last run started. */
    private synchronized void retime() {
        if (started && !stopped) {
            setTimed(backoff.nanosUntilDue());
        }
    }

    private void setTimed(long delayNanos) {
        if (timed != null) {
            timed.cancel(false);
        }
        long of = ++generation;
        try {
            timed = thread.schedule(() -> run(true, of), delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            timed = null; // stopped meanwhile
        }
    }
}
