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
import java.util.ArrayList;
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
 * (docs/decisions.md §99). Between passes the thread sleeps (§105).
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
    /** When each network was last read up to its head ({@link System#nanoTime}). */
    private final Map<String, Long> lastRead = new ConcurrentHashMap<>();
    private final long maxIdleNanos;
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
        this.maxIdleNanos = maxIdle.toNanos();
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
        if (timed) {
            long now = System.nanoTime();
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
        return !anythingOpen();
    }

    /**
     * Whether a timed pass reads {@code adapter}'s network: a real node's always; a chain that announces its changes
     * (each wakes the replica that made it) only when it was not read up to its head within the idle cap (§99), so
     * four sandbox networks cost a look at a clock each second instead of three queries each.
     */
    private boolean timedPassReads(ChainAdapter adapter, long now) {
        if (!adapter.announcesChanges()) {
            return true;
        }
        Long read = lastRead.get(adapter.network());
        return read == null || now - read >= maxIdleNanos;
    }

    /**
     * A payment request was opened here: back to every second, and read its network now if the passes were backing
     * off (while they run every second, the next timed pass reads it: no extra pass per creation under load).
     */
    void onOpened(@Observes(during = TransactionPhase.AFTER_SUCCESS) Opened event) {
        if (config.detection().enabled() && event.network() != null && job.wake()) {
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

    /**
     * Whether a pass may change something: a payment request awaits funds or a transfer gains confirmations (two
     * lookups in partial indexes). When the question fails, the answer is yes (no back-off).
     */
    private boolean anythingOpen() {
        try {
            return QuarkusTransaction.requiringNew().call(() -> (Boolean) em.createNativeQuery(
                    "select exists (select 1 from payment_request where status = :awaiting) "
                            + "or exists (select 1 from payment_transfer where status = :confirming)")
                    .setParameter("awaiting", PaymentRequestState.AWAITING.wire())
                    .setParameter("confirming", PaymentTransfer.CONFIRMING).getSingleResult());
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** Passes over one network until it is read up to its head (or a pass makes no progress). */
    void watch(ChainAdapter adapter) {
        try {
            boolean more;
            do {
                Timer.Sample sample = Timer.start(registry);
                more = pass(adapter);
                sample.stop(passTimer);
            } while (more && !job.stopped());
            lastError.remove(adapter.network());
            lastRead.put(adapter.network(), System.nanoTime());
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
