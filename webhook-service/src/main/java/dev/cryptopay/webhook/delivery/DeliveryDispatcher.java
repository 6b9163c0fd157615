package dev.cryptopay.webhook.delivery;

import dev.cryptopay.webhook.config.WebhookConfig;
import dev.cryptopay.webhook.delivery.DeliveryStore.Claimed;
import dev.cryptopay.webhook.delivery.DeliveryStore.Outcome;
import dev.cryptopay.webhook.service.SigningSecrets;
import dev.cryptopay.webhook.service.UrlPolicy;
import dev.cryptopay.webhook.service.UrlPolicy.Destination;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.MultiMap;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import org.jboss.logging.Logger;

/**
 * Turns pending deliveries into signed HTTP attempts.
 *
 * <ul>
 * <li>One dispatcher thread claims due deliveries from the database ({@link DeliveryStore#claim}), woken when the
 * consumer committed new ones, when an attempt finished, when one of this instance's retries falls due, or every
 * {@code poll-interval} for work another instance left behind; while its claims find nothing that wait doubles up to
 * {@code max-idle-poll-interval} (docs/decisions.md §76), so an idle service does not query four times a second.</li>
 * <li>Each claimed delivery is attempted on its own virtual thread: resolve and check the destination, sign with a
 * fresh timestamp, POST, wait at most the request timeout.</li>
 * <li>Concurrency is bounded per endpoint (webhook): a saturated endpoint is left out of the next claims, so its
 * backlog stays in the database and never holds up other endpoints (no head-of-line blocking).</li>
 * <li>One writer thread records finished attempts in batches ({@link DeliveryStore#record}).</li>
 * </ul>
 */
@ApplicationScoped
public class DeliveryDispatcher {

    private static final Logger LOG = Logger.getLogger(DeliveryDispatcher.class);
    private static final int MAX_CLAIM = 200;
    private static final int MAX_RECORD_BATCH = 500;
    /** The result writer waits this long for more results to write in the same transaction. */
    private static final long RECORD_LINGER_NANOS = 20_000_000L;
    /** Beyond this many known retries, further ones are found by the idle poll (at most its cap late). */
    private static final int MAX_KNOWN_RETRIES = 10_000;

    private final DeliveryStore store;
    private final Sender sender;
    private final UrlPolicy urls;
    private final SigningSecrets secrets;
    private final WebhookConfig config;

    private final Semaphore wakeUps = new Semaphore(0);
    private final Map<UUID, Integer> inFlightPerEndpoint = new ConcurrentHashMap<>();
    /** Endpoints whose last claim filled all their free slots: they may have more due work waiting. */
    private final Set<UUID> mayHaveMore = ConcurrentHashMap.newKeySet();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** When this instance's recorded retries fall due ({@code System.nanoTime()}), earliest first. */
    private final PriorityBlockingQueue<Long> retriesDue = new PriorityBlockingQueue<>();
    private final AtomicLong claimRounds = new AtomicLong();
    private final LinkedBlockingQueue<Outcome> finished = new LinkedBlockingQueue<>();
    private final ExecutorService attempts = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("webhook-attempt-", 0).factory());
    private volatile boolean running;
    private Thread dispatcherThread;
    private Thread recorderThread;

    public DeliveryDispatcher(DeliveryStore store, Sender sender, UrlPolicy urls, SigningSecrets secrets,
            WebhookConfig config) {
        this.store = store;
        this.sender = sender;
        this.urls = urls;
        this.secrets = secrets;
        this.config = config;
    }

    void start(@Observes StartupEvent event) {
        Duration margin = config.lease().minus(config.requestTimeout());
        if (margin.compareTo(Duration.ofSeconds(2)) < 0) {
            throw new IllegalStateException("cryptopay.webhooks.lease (" + config.lease()
                    + ") must exceed cryptopay.webhooks.request-timeout (" + config.requestTimeout()
                    + ") by at least 2 s, or a slow attempt could be sent twice at once");
        }
        running = true;
        dispatcherThread = Thread.ofPlatform().name("webhook-dispatcher").daemon().start(this::dispatchLoop);
        recorderThread = Thread.ofPlatform().name("webhook-recorder").daemon().start(this::recordLoop);
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        wake();
        attempts.shutdown();
        try {
            // Attempts under way get a moment to finish and be recorded; any others are re-sent after their lease.
            attempts.awaitTermination(3, TimeUnit.SECONDS);
            finished.offer(POISON);
            recorderThread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks for a claim round soon; cheap and safe to call from anywhere, any number of times. */
    public void wake() {
        if (wakeUps.availablePermits() == 0) {
            wakeUps.release();
        }
    }

    /** Claim rounds run since start (for tests: an idle dispatcher backs off). */
    long claimRounds() {
        return claimRounds.get();
    }

    /** Attempts under way on this instance (for tests and metrics). */
    public int inFlight() {
        return inFlight.get();
    }

    private void dispatchLoop() {
        long pollMillis = Math.max(10, config.pollInterval().toMillis());
        long maxIdleMillis = Math.max(pollMillis, config.maxIdlePollInterval().toMillis());
        long idleMillis = pollMillis;
        long backoff = 0;
        while (running) {
            try {
                if (backoff > 0) {
                    Thread.sleep(backoff);
                }
                boolean woken = wakeUps.tryAcquire(Math.min(idleMillis, millisUntilNextRetry()), TimeUnit.MILLISECONDS);
                wakeUps.drainPermits();
                dropRetriesDue();
                int claimed = 0;
                Round round;
                do {
                    round = dispatchOnce();
                    claimed += round.claimed();
                } while (running && round.full()); // a full claim: there may be more due work, and room for it
                // Idle back-off: only after a round that found nothing while nothing was under way.
                idleMillis = woken || claimed > 0 || inFlight.get() > 0 ? pollMillis
                        : Math.min(maxIdleMillis, idleMillis * 2);
                backoff = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                backoff = Math.min(5000, Math.max(250, backoff * 2));
                idleMillis = pollMillis;
                LOG.warnf("claiming deliveries failed, retrying in %d ms: %s", backoff, e.getMessage());
            }
        }
    }

    /** Milliseconds until this instance's earliest recorded retry falls due (at least 1; a long time if none). */
    private long millisUntilNextRetry() {
        Long due = retriesDue.peek();
        return due == null ? Long.MAX_VALUE : Math.max(1, (due - System.nanoTime() + 999_999) / 1_000_000);
    }

    private void dropRetriesDue() {
        long now = System.nanoTime();
        Long due;
        while ((due = retriesDue.peek()) != null && due - now <= 0) {
            retriesDue.poll();
        }
    }

    /** What one claim round did: how many it claimed, and whether that was all it asked for (there may be more). */
    record Round(int claimed, boolean full) {
        static final Round NO_ROOM = new Round(0, false);
    }

    /**
     * One claim round. When it claimed as many as it asked for there may be more right away; otherwise the next round
     * waits for a wake-up: an attempt finishing, new deliveries, a retry falling due, or the poll interval.
     */
    Round dispatchOnce() throws Exception {
        int room = config.maxInFlight() - inFlight.get();
        if (room <= 0) {
            return Round.NO_ROOM;
        }
        int perEndpoint = config.maxInFlightPerEndpoint();
        List<UUID> saturated = new ArrayList<>();
        Map<UUID, Integer> free = new HashMap<>();
        inFlightPerEndpoint.forEach((webhook, busy) -> {
            if (busy >= perEndpoint) {
                saturated.add(webhook);
            } else if (busy > 0) {
                free.put(webhook, perEndpoint - busy);
            }
        });
        long began = System.nanoTime();
        int limit = Math.min(room, MAX_CLAIM);
        claimRounds.incrementAndGet();
        List<Claimed> claimed = store.claim(saturated, free, perEndpoint, limit, config.lease());
        if (LOG.isDebugEnabled()) {
            LOG.debugf("claimed %d in %d ms (in flight %d, saturated endpoints %d)", claimed.size(),
                    (System.nanoTime() - began) / 1_000_000, inFlight.get(), saturated.size());
        }
        Map<UUID, Integer> claimedPerEndpoint = new HashMap<>();
        for (Claimed delivery : claimed) {
            inFlight.incrementAndGet();
            inFlightPerEndpoint.merge(delivery.webhookId(), 1, Integer::sum);
            claimedPerEndpoint.merge(delivery.webhookId(), 1, Integer::sum);
            attempts.execute(() -> attempt(delivery));
        }
        // an endpoint that was asked (not saturated) and gave nothing has no queue left
        mayHaveMore.removeIf(webhook -> !saturated.contains(webhook) && !claimedPerEndpoint.containsKey(webhook));
        claimedPerEndpoint.forEach((webhook, count) -> {
            if (count >= free.getOrDefault(webhook, perEndpoint)) {
                mayHaveMore.add(webhook);
            } else {
                mayHaveMore.remove(webhook);
            }
        });
        return new Round(claimed.size(), claimed.size() == limit);
    }

    private void attempt(Claimed delivery) {
        OffsetDateTime attemptedAt = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        long started = System.nanoTime();
        Integer status = null;
        String error = null;
        try {
            Destination destination = urls.destination(delivery.url());
            long timestamp = Instant.now().getEpochSecond();
            MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                    .add("content-type", "application/json")
                    .add("user-agent", Sender.USER_AGENT)
                    .add("webhook-id", delivery.eventId())
                    .add("webhook-timestamp", Long.toString(timestamp))
                    .add("webhook-signature",
                            Signatures.header(secretsOf(delivery), delivery.eventId(), timestamp, delivery.payload()));
            status = sender.post(destination, headers, delivery.payload()).status();
        } catch (UrlPolicy.Refused | Sender.NoAnswer e) {
            error = e.getMessage();
        } catch (Exception e) {
            error = describe(e);
        } catch (Throwable t) {
            error = "internal error";
            LOG.error("webhook attempt failed unexpectedly", t);
        } finally {
            int durationMs = (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - started) / 1_000_000);
            boolean succeeded = status != null && status >= 200 && status < 300;
            finished.add(new Outcome(delivery, attemptedAt, durationMs, status, truncate(error), succeeded));
            inFlightPerEndpoint.computeIfPresent(delivery.webhookId(), (id, busy) -> busy <= 1 ? null : busy - 1);
            inFlight.decrementAndGet();
            // A freed slot matters when this endpoint has a queue; new work and due retries wake the loop anyway.
            if (mayHaveMore.contains(delivery.webhookId())) {
                wake();
            }
        }
    }

    /** The secrets that sign an attempt: the current one, and the previous one during a rotation's overlap. */
    private List<String> secretsOf(Claimed delivery) {
        String current = secrets.open(delivery.webhookId(), delivery.sealedSigningKey());
        return delivery.sealedPreviousSigningKey() == null ? List.of(current)
                : List.of(current, secrets.open(delivery.webhookId(), delivery.sealedPreviousSigningKey()));
    }

    /** Tells the recorder to write what it has and stop. */
    private static final Outcome POISON = new Outcome(null, null, 0, null, null, false);

    private void recordLoop() {
        List<Outcome> batch = new ArrayList<>();
        while (true) {
            try {
                batch.add(finished.take());
                long until = System.nanoTime() + RECORD_LINGER_NANOS;
                while (batch.size() < MAX_RECORD_BATCH && batch.get(batch.size() - 1) != POISON) {
                    Outcome next = finished.poll(until - System.nanoTime(), TimeUnit.NANOSECONDS);
                    if (next == null) {
                        break;
                    }
                    batch.add(next);
                    finished.drainTo(batch, MAX_RECORD_BATCH - batch.size());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            boolean stopping = batch.removeIf(o -> o == POISON);
            if (!batch.isEmpty()) {
                write(batch, stopping);
                batch.clear();
            }
            if (stopping) {
                return;
            }
        }
    }

    /**
     * Writes one batch, retrying while the database is unavailable. The leases keep other instances off these
     * deliveries meanwhile; if this instance stops first, they are re-sent after their lease (at-least-once).
     */
    private void write(List<Outcome> batch, boolean stopping) {
        long backoff = 250;
        while (true) {
            try {
                long began = System.nanoTime();
                store.record(batch, config.retrySchedule());
                scheduleRetries(batch);
                if (LOG.isDebugEnabled()) {
                    LOG.debugf("recorded %d attempts in %d ms", batch.size(), (System.nanoTime() - began) / 1_000_000);
                }
                return;
            } catch (Exception e) {
                LOG.warnf("recording %d webhook attempts failed%s: %s", batch.size(),
                        stopping ? " while stopping; they will be re-sent" : ", retrying", e.getMessage());
                if (stopping) {
                    return;
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoff = Math.min(5000, backoff * 2);
            }
        }
    }

    /**
     * Notes when the retries just recorded fall due (the store's schedule: the wait at the delivery's retry step), so
     * the dispatcher wakes for them however far it has backed off; wakes it now if the earliest moved earlier.
     */
    private void scheduleRetries(List<Outcome> recorded) {
        List<Duration> schedule = config.retrySchedule();
        long now = System.nanoTime();
        Long earliestBefore = retriesDue.peek();
        for (Outcome o : recorded) {
            Duration wait = o.succeeded() ? null : DeliveryStore.retryWait(o, schedule);
            if (wait != null && retriesDue.size() < MAX_KNOWN_RETRIES) {
                retriesDue.add(now + wait.toNanos());
            }
        }
        Long earliest = retriesDue.peek();
        if (earliest != null && (earliestBefore == null || earliest - earliestBefore < 0)) {
            wake();
        }
    }

    /** A short, client-safe reason for a failed attempt. */
    static String describe(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            if (cause instanceof ConnectException || cause instanceof SSLException) {
                break;
            }
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? "" : cause.getMessage();
        if (cause instanceof ConnectException || message.startsWith("Connection refused")) {
            return "connection refused";
        }
        if (cause instanceof SSLException) {
            return "TLS handshake failed: " + message;
        }
        if (cause.getClass().getSimpleName().contains("Timeout")) {
            return "no answer within the request timeout";
        }
        if (message.toLowerCase().contains("closed") || message.toLowerCase().contains("reset")) {
            return "connection closed before an answer";
        }
        return message.isBlank() ? cause.getClass().getSimpleName() : message;
    }

    private static String truncate(String error) {
        return error == null || error.length() <= 255 ? error : error.substring(0, 255);
    }
}
