package dev.cryptopay.transaction.detection;

import dev.cryptopay.support.time.IdleBackoff;
import dev.cryptopay.support.time.PacedJob;
import dev.cryptopay.transaction.chain.ChainAdapter.BlockRef;
import dev.cryptopay.transaction.chain.ChainAdapter.ChainTransfer;
import dev.cryptopay.transaction.chain.ChainAdapter.Scan;
import dev.cryptopay.transaction.chain.ChainAdapter;
import dev.cryptopay.transaction.chain.ChainAdapters;
import dev.cryptopay.transaction.chain.SandboxChain.ChainAdvanced;
import dev.cryptopay.transaction.chain.SandboxChainAdapter;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.service.Opened;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Watches every network for transfers to payment requests' addresses: each pass reads the blocks after the
 * network's cursor (at most {@code maxBlocksPerScan}), hands them to {@link Detection} to apply in one database
 * transaction, and repeats until it reaches the head. Passes run on one thread of their own ({@link PacedJob}), every
 * second while a payment request awaits funds or a transfer confirms, and at once when the sandbox chain changes or a
 * payment request is opened in this replica; a network whose node is down is retried at the next timed pass while the
 * others go on. While nothing is open the passes back off (docs/decisions.md §74): the delay doubles
 * up to {@code cryptopay.detection.max-idle-interval} (30 s), so a request another replica opened is watched here
 * within that delay at the latest (its own replica watches it at once), and funds sent to an address whose request
 * ended are recorded (late) within it. A chain that {@linkplain ChainAdapter#announcesChanges announces its changes}
 * (the sandbox chain) is read when it changes; the timed passes read it only once per that delay, as a safety net
 * (docs/decisions.md §99). A network read from a node is read by the timed passes while a payment request may await
 * funds on it or a transfer on it gains confirmations, and otherwise once per that delay too (§129): an open request
 * on one network no longer has every node polled every second. Between passes the thread sleeps (§105).
 *
 * <p>Reorganisations: a pass checks that the first new block's parent is the block the cursor stands on; if not,
 * it walks back through the recent hashes it kept until the node agrees, and {@link Detection#rewind}s to there.
 * That costs calls only when a reorganisation happened, so a pass reads the node with a constant number of calls
 * (head, one batch for the range) however many payment requests are open.
 */
@ApplicationScoped
public class PaymentWatcher {

    private static final Logger LOG = Logger.getLogger(PaymentWatcher.class);

    private final ChainAdapters adapters;
    private final Detection detection;
    private final TransactionServiceConfig config;
    private final Timer passTimer;
    private final MeterRegistry registry;
    private final Set<String> dirty = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> lastError = new ConcurrentHashMap<>();
    private final Set<String> verified = ConcurrentHashMap.newKeySet();
    /** When the last read of each network up to its head began ({@link System#nanoTime}). */
    private final Map<String, Long> lastRead = new ConcurrentHashMap<>();
    /**
     * How long after its last read a timed pass reads a network as the safety net, and after the last look at the
     * database looks again: the idle cap, less half an interval, so that a pass at the cap, a cap after the one that
     * read or looked, does so again (not every other one).
     */
    private final long safetyNetNanos;
    /** When a look at the database last failed ({@link System#currentTimeMillis}), for a warning once a minute. */
    private volatile long lookFailedAt;
    /**
     * Per network, the payment requests opened in this replica since the database's last look (§129): the latest
     * expiration and how many. Only ever raised between looks (a request that ends early counts until the next look);
     * a look drops what it has seen.
     */
    private final Map<String, Openings> openedHere = new ConcurrentHashMap<>();
    /**
     * What may be open as the database had it at its last look, once per idle cap (§129): every replica's requests
     * awaiting funds and transfers gaining confirmations; null before the first look or after one failed (every node
     * is then read at each timed pass, and the database asked after each run).
     */
    private volatile Open known;
    /** When {@link #known} was read ({@link System#nanoTime}). */
    private volatile long knownRead;

    /** Payment requests opened here on one network: the latest expiration, and how many (so that each changes it). */
    private record Openings(Instant until, long count) {

        Openings and(Openings next) {
            return new Openings(next.until.isAfter(until) ? next.until : until, count + next.count);
        }
    }

    /**
     * Per network, the latest expiration of a payment request awaiting funds on it, and the networks where a transfer
     * gains confirmations.
     */
    private record Open(Map<String, Instant> awaitedUntil, Set<String> confirming) {

        boolean anything() {
            return !awaitedUntil.isEmpty() || !confirming.isEmpty();
        }
    }
    private final EntityManager em;
    /** The watcher's thread and the pace of its passes (§74, §105). */
    private final PacedJob job;

    public PaymentWatcher(ChainAdapters adapters, Detection detection, TransactionServiceConfig config,
            MeterRegistry registry, EntityManager em,
            @ConfigProperty(name = "cryptopay.detection.max-idle-interval", defaultValue = "30s") Duration maxIdle) {
        this.adapters = adapters;
        this.detection = detection;
        this.config = config;
        this.registry = registry;
        this.em = em;
        this.job = new PacedJob("payment-watcher", new IdleBackoff(config.detection().interval(), maxIdle), this::run);
        this.safetyNetNanos = maxIdle.toNanos() - config.detection().interval().toNanos() / 2;
        this.passTimer = Timer.builder("cryptopay.watcher.pass").description("One watcher pass over a network")
                .publishPercentiles(0.5, 0.99).register(registry);
    }

    /** The first timed pass comes two seconds after the start. */
    void start(@Observes StartupEvent event) {
        job.start(Duration.ofSeconds(2));
    }

    /**
     * One run on the watcher's thread: a timed one (at the pace) adds the networks it reads to those woken since, then
     * every network woken is read; answers whether nothing is open any more (the pace then backs off).
     */
    private boolean run(boolean timed) {
        if (!config.detection().enabled()) {
            return true;
        }
        boolean looked = false;
        boolean nothingOpen = false;
        if (timed) {
            long now = System.nanoTime();
            if (known == null || now - knownRead >= safetyNetNanos) {
                looked = true;
                nothingOpen = lookAtTheDatabase(now);
            }
            adapters.all().stream().filter(adapter -> timedPassReads(adapter, now))
                    .forEach(adapter -> dirty.add(adapter.network()));
        }
        List<String> networks = new ArrayList<>(dirty);
        dirty.removeAll(networks);
        for (String network : networks) {
            if (job.stopped()) {
                return false;
            }
            adapters.of(network).ifPresent(this::watch);
        }
        if (openAsKnown()) {
            return false;
        }
        // Nothing known open: a look answers whether anything is (this run's, if it made one), and also tells the
        // timed passes which nodes another replica's requests need read.
        return looked ? nothingOpen : lookAtTheDatabase(System.nanoTime());
    }

    /**
     * Whether something was open at the database's last look (at most an idle cap ago: a request awaiting funds or a
     * transfer gaining confirmations) or a request opened here since may still await funds. While it is, the passes
     * stay at the interval without asking the database after each run (§129): that one transaction a second, its code
     * run too rarely to be compiled, was the watcher's largest cost between passes (about 0.5% of a core on a slow
     * instance). Once nothing is open the passes go on at the interval until the next look, then back off.
     */
    private boolean openAsKnown() {
        Open open = known;
        if (open == null) {
            return false;
        }
        Instant now = Instant.now();
        return open.anything() || openedHere.values().stream().anyMatch(opened -> after(opened.until(), now));
    }

    /**
     * Whether a timed pass reads {@code adapter}'s network. Every network when it was not read up to its head within
     * the idle cap: the safety net for funds sent to an ended request and for a request another replica opened (§74).
     * Otherwise a chain that announces its changes (each wakes the replica that made it) not (§99), so four sandbox
     * networks cost a look at a clock each second instead of three queries each; and a real node only while a payment
     * request may await funds on its network or a transfer on it gains confirmations (§129), so a request open on one
     * network does not cost every other node two calls a second (a hosted node's quota counts every call).
     */
    private boolean timedPassReads(ChainAdapter adapter, long now) {
        Long read = lastRead.get(adapter.network());
        if (read == null || now - read >= safetyNetNanos) {
            return true;
        }
        return !adapter.announcesChanges() && mayHaveWork(adapter.network());
    }

    /**
     * Whether the timed passes read {@code network} at every tick, not only as the safety net: a network read from a
     * node that {@linkplain #mayHaveWork may have work} (for tests and the performance notes).
     */
    public boolean readsEverySecond(String network) {
        return adapters.of(network).filter(adapter -> !adapter.announcesChanges())
                .map(adapter -> mayHaveWork(network)).orElse(false);
    }

    /**
     * Whether a payment request may await funds on {@code network} (one opened here, or one the database's last look
     * found, until its expiration) or a transfer on it gains confirmations (at that look, or after this replica's last
     * pass over it); also when the last look failed.
     */
    private boolean mayHaveWork(String network) {
        Open open = known;
        Instant now = Instant.now();
        Openings opened = openedHere.get(network);
        return open == null || open.confirming().contains(network) || detection.leftConfirming(network)
                || after(open.awaitedUntil().get(network), now) || opened != null && after(opened.until(), now);
    }

    private static boolean after(Instant until, Instant now) {
        return until != null && until.isAfter(now);
    }

    /**
     * Reads what may be open, every replica's (§129): per network the latest expiration of a payment request awaiting
     * funds (a scan of the open requests once per idle cap) and the networks where transfers gain confirmations. The
     * requests opened here before the look began have committed, so the look has them (awaiting, or ended since): it
     * drops them from {@link #openedHere}, unless another was opened meanwhile. Answers whether it found nothing open.
     */
    private boolean lookAtTheDatabase(long now) {
        Map<String, Openings> seen = Map.copyOf(openedHere);
        try {
            known = QuarkusTransaction.requiringNew().call(() -> {
                Map<String, Instant> awaitedUntil = new HashMap<>();
                for (Object row : em.createNativeQuery("select crypto_network, max(expiration) from payment_request "
                        + "where status = :awaiting group by crypto_network")
                        .setParameter("awaiting", PaymentRequestState.AWAITING.wire()).getResultList()) {
                    Object[] columns = (Object[]) row;
                    awaitedUntil.put((String) columns[0], instant(columns[1]));
                }
                Set<String> confirming = new HashSet<>();
                for (Object network : em.createNativeQuery("select distinct network from payment_transfer "
                        + "where status = :confirming").setParameter("confirming", PaymentTransfer.CONFIRMING)
                        .getResultList()) {
                    confirming.add((String) network);
                }
                return new Open(awaitedUntil, confirming);
            });
            knownRead = now;
            // Only those unchanged since the copy: an opening since changed its network's count.
            seen.forEach((network, openings) -> openedHere.remove(network, openings));
            return !known.anything();
        } catch (RuntimeException e) {
            known = null; // every node read, and the database asked after each run, until a look answers
            long failedAt = System.currentTimeMillis();
            if (!job.stopped() && failedAt - lookFailedAt > 60_000) {
                lookFailedAt = failedAt;
                LOG.warnf("The watcher's look at what is open failed; every node is read at each pass until one "
                        + "answers: %s", e.getMessage());
            }
            return false;
        }
    }

    private static Instant instant(Object value) {
        return switch (value) {
            case Instant instant -> instant;
            case OffsetDateTime time -> time.toInstant();
            case java.sql.Timestamp timestamp -> timestamp.toInstant();
            default -> throw new IllegalStateException("unexpected timestamp " + value.getClass());
        };
    }

    /**
     * A payment request was opened here: back to every second, and read its network now if the passes were backing
     * off (while they run every second, the next timed pass reads it: no extra pass per creation under load).
     */
    void onOpened(@Observes(during = TransactionPhase.AFTER_SUCCESS) Opened event) {
        if (!config.detection().enabled() || event.network() == null) {
            return;
        }
        if (event.expiration() != null) {
            openedHere.merge(event.network(), new Openings(event.expiration().toInstant(), 1), Openings::and);
        }
        if (job.wake()) {
            wake(event.network());
        }
    }

    /** The current delay between passes (for tests and the performance notes). */
    public Duration idleDelay() {
        return job.delay();
    }

    /** A sandbox transfer or block committed: read that network now rather than at the next timed pass. */
    void onChainAdvanced(@Observes(during = TransactionPhase.AFTER_SUCCESS) ChainAdvanced event) {
        if (config.detection().enabled()) {
            wake(event.network());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        job.stop();
    }

    /** Runs a pass over {@code network} soon; wake-ups that arrive meanwhile are merged. */
    public void wake(String network) {
        if (job.stopped()) {
            return;
        }
        dirty.add(network);
        job.runSoon();
    }

    /** Passes over one network until it is read up to its head (or a pass makes no progress). */
    void watch(ChainAdapter adapter) {
        long started = System.nanoTime();
        try {
            boolean more;
            do {
                Timer.Sample sample = Timer.start(registry);
                more = pass(adapter);
                sample.stop(passTimer);
            } while (more && !job.stopped());
            lastError.remove(adapter.network());
            lastRead.put(adapter.network(), started);
        } catch (RuntimeException e) {
            lastRead.remove(adapter.network()); // read again at the next timed pass, announced or not
            // Log once a minute per network: a node that is down must not flood the log every second.
            long now = System.currentTimeMillis();
            Long last = lastError.get(adapter.network());
            if (job.stopped()) { // the datasource closed under this pass, which rolls back (docs/decisions.md §103)
                LOG.debugf("Watching %s stopped with the service: %s", adapter.network(), e.getMessage());
            } else if (last == null || now - last > 60_000) {
                lastError.put(adapter.network(), now);
                LOG.warnf("Watching %s paused, retrying at every pass: %s", adapter.network(), e.getMessage());
            }
        }
    }

    /** One pass; true when there is more to read right away. */
    boolean pass(ChainAdapter adapter) {
        String network = adapter.network();
        if (!verified.contains(network)) {
            adapter.verify();
            verified.add(network);
        }
        Detection.Cursor cursor = detection.cursor(network);
        long head = adapter.head();
        if (cursor == null) {
            long start = adapter instanceof SandboxChainAdapter ? -1
                    : Math.max(-1, head - config.detection().startBlocksBack());
            BlockRef at = start < 0 ? null : adapter.block(start);
            detection.start(network, start, at == null ? null : at.hash());
            return true;
        }
        List<ChainTransfer> pending = adapter.pending();
        if (head <= cursor.blockNumber()) {
            if (!pending.isEmpty()) {
                detection.apply(network, cursor.blockNumber(), List.of(), pending);
            }
            return false;
        }
        int maxBlocks = config.chains().containsKey(network) ? config.chains().get(network).maxBlocksPerScan() : 100;
        long to = Math.min(head, cursor.blockNumber() + maxBlocks);
        Scan scan = adapter.scan(cursor.blockNumber() + 1, to);
        if (scan.blocks().isEmpty()) {
            return false;
        }
        if (!continues(cursor, scan.blocks())) {
            return rewind(adapter, cursor);
        }
        List<ChainTransfer> transfers = new ArrayList<>(scan.transfers());
        transfers.addAll(pending);
        return detection.apply(network, cursor.blockNumber(), scan.blocks(), transfers) && to < head;
    }

    /** True when the blocks read chain on from the cursor's block and onto each other. */
    private static boolean continues(Detection.Cursor cursor, List<BlockRef> blocks) {
        String parent = cursor.blockHash();
        for (BlockRef block : blocks) {
            if (parent != null && !parent.equalsIgnoreCase(block.parentHash())) {
                return false;
            }
            parent = block.hash();
        }
        return true;
    }

    /** Finds the highest block the node and the kept hashes agree on, and rewinds the cursor to it. */
    private boolean rewind(ChainAdapter adapter, Detection.Cursor cursor) {
        Map<Long, String> kept = detection.recentHashes(adapter.network());
        long lowest = kept.keySet().stream().mapToLong(Long::longValue).min().orElse(cursor.blockNumber());
        for (long number = cursor.blockNumber(); number >= lowest; number--) {
            String ours = kept.get(number);
            BlockRef theirs = adapter.block(number);
            if (ours != null && theirs != null && ours.equalsIgnoreCase(theirs.hash())) {
                return detection.rewind(adapter.network(), cursor.blockNumber(), number, ours);
            }
        }
        long fork = lowest - 1;
        LOG.errorf("Reorganisation on %s deeper than the %d kept block hashes; rewinding to %d",
                adapter.network(), kept.size(), fork);
        BlockRef at = fork < 0 ? null : adapter.block(fork);
        return detection.rewind(adapter.network(), cursor.blockNumber(), fork, at == null ? null : at.hash());
    }
}
