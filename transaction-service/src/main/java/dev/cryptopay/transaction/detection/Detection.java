package dev.cryptopay.transaction.detection;

import dev.cryptopay.events.TimeOrderedIds;
import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.transaction.chain.ChainAdapter.BlockRef;
import dev.cryptopay.transaction.chain.ChainAdapter.ChainTransfer;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.ChainCursor;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.service.Compliance;
import dev.cryptopay.transaction.service.PaymentRequests;
import dev.cryptopay.transaction.service.TransactionEvents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The database side of payment detection: one watcher pass over a network commits as one transaction — the
 * transfers found, the confirmations they reached, the payment requests and transactions they settle, their
 * events (through the outbox) and the network's cursor all together. A pass that fails or a replica that dies
 * mid-pass leaves nothing behind, and the next pass reads the same blocks again; (network, txnHash, position)
 * makes a transfer count once however often it is read.
 *
 * <p>Locks, always in this order: the network's cursor row (skip-locked: replicas never run the same network's
 * pass at once), then the affected transactions by id (as cancel and expiry lock them), then their requests.
 */
@ApplicationScoped
public class Detection {

    private static final Logger LOG = Logger.getLogger(Detection.class);

    private final EntityManager em;
    private final TransactionEvents events;
    private final TransactionServiceConfig config;
    private final Compliance compliance;
    /** The networks where this replica's last pass left transfers gaining confirmations (§129). */
    private final Set<String> confirming = ConcurrentHashMap.newKeySet();

    public Detection(EntityManager em, TransactionEvents events, TransactionServiceConfig config,
            Compliance compliance) {
        this.em = em;
        this.events = events;
        this.config = config;
        this.compliance = compliance;
    }

    /**
     * Whether this replica's last pass over {@code network} left transfers in its blocks gaining confirmations: the
     * watcher then reads a node's network every second, also once their requests have expired (§129). A pass that
     * rolls back may leave this a pass out of date, which costs a read at most.
     */
    public boolean leftConfirming(String network) {
        return confirming.contains(network);
    }

    /** The watcher's position on a network: the last block read and its hash. */
    public record Cursor(long blockNumber, String blockHash) {
    }

    @Transactional
    public Cursor cursor(String network) {
        ChainCursor cursor = ChainCursor.findById(network);
        return cursor == null ? null : new Cursor(cursor.blockNumber, cursor.blockHash);
    }

    /** Creates the cursor of a network read for the first time; a concurrent creator wins silently. */
    @Transactional
    public void start(String network, long blockNumber, String blockHash) {
        em.createNativeQuery("insert into chain_cursor (network, block_number, block_hash, updated_at) "
                + "values (:network, :number, :hash, now()) on conflict (network) do nothing")
                .setParameter("network", network).setParameter("number", blockNumber)
                .setParameter("hash", blockHash).executeUpdate();
    }

    /** Hashes of the recent blocks read on a network, by height (to find where a reorganisation forked). */
    @Transactional
    public Map<Long, String> recentHashes(String network) {
        Map<Long, String> hashes = new HashMap<>();
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("select number, hash from chain_block where network = :network")
                .setParameter("network", network).getResultList();
        for (Object[] row : rows) {
            hashes.put(((Number) row[0]).longValue(), (String) row[1]);
        }
        return hashes;
    }

    /**
     * Applies one pass: {@code blocks} (read after the cursor, in order; may be empty) and the transfers in them,
     * plus the network's pending transfers. Answers false, changing nothing, when another replica holds the
     * network or moved its cursor since {@code expectedCursor} was read.
     */
    @Transactional
    public boolean apply(String network, long expectedCursor, List<BlockRef> blocks, List<ChainTransfer> transfers) {
        ChainCursor cursor = lockCursor(network);
        if (cursor == null || cursor.blockNumber != expectedCursor) {
            return false;
        }
        long head = blocks.isEmpty() ? cursor.blockNumber : blocks.get(blocks.size() - 1).number();
        OffsetDateTime now = Clock.now();

        Map<String, PaymentRequest> watched = watchedAddresses(network, transfers);
        List<ChainTransfer> ours = transfers.stream()
                .filter(t -> watched.containsKey(key(network, t.toAddress())))
                .toList();
        // Every transaction this pass may change: those paid now and those with transfers gaining confirmations.
        Set<UUID> affected = new TreeSet<>();
        ours.forEach(t -> affected.add(watched.get(key(network, t.toAddress())).transactionId));
        affected.addAll(em.createQuery("select distinct t.transactionId from PaymentTransfer t where t.network = ?1 "
                + "and t.status = ?2 and t.blockNumber <= ?3", UUID.class)
                .setParameter(1, network).setParameter(2, PaymentTransfer.CONFIRMING).setParameter(3, head)
                .getResultList());
        Map<UUID, Transaction> transactions = lockTransactions(affected);
        // The requests were read before their transactions were locked: a cancel may have committed meanwhile. They
        // are read again and locked (after their transactions and in id order, as every writer of requests takes
        // them): the expiry job, which expires requests without their transactions' lock, then skips them until this
        // pass commits, where before it could commit EXPIRED under it, and the pass wrote its stale status back.
        watched.values().stream().sorted(Comparator.comparing((PaymentRequest r) -> r.id))
                .forEach(r -> em.refresh(r, LockModeType.PESSIMISTIC_WRITE));

        Set<UUID> detected = new HashSet<>();
        Map<UUID, List<Compliance.Decision>> decisions = new HashMap<>();
        for (ChainTransfer transfer : ours) {
            PaymentRequest request = watched.get(key(network, transfer.toAddress()));
            if (!request.cryptoAsset.equals(transfer.asset())) {
                LOG.warnf("Transfer %s sends %s to the address of payment request %s, which expects %s; not counted",
                        transfer.txnHash(), transfer.asset(), request.id, request.cryptoAsset);
                continue;
            }
            Transaction tx = transactions.get(request.transactionId);
            PaymentTransfer recorded = record(network, transfer, request, tx, now);
            if (recorded != null) {
                detected.add(request.transactionId);
                // Screening of the sender and the trigger table (docs/decisions.md §59, §60)
                compliance.screen(recorded, request);
                MerchantView merchant = MerchantView.findById(tx.merchantId);
                decisions.computeIfAbsent(tx.id, k -> new ArrayList<>()).add(compliance.decide(tx, request, recorded,
                        merchant == null ? null : merchant.config));
            }
        }
        em.flush();
        // Every transfer in a block at or below the new head gains confirmations (new ones included).
        boolean stillConfirming = false;
        for (PaymentTransfer transfer : PaymentTransfer.<PaymentTransfer>list(
                "network = ?1 and status = ?2 and blockNumber <= ?3", network, PaymentTransfer.CONFIRMING, head)) {
            transfer.confirmations = (int) Math.min(Integer.MAX_VALUE, head - transfer.blockNumber + 1);
            if (transfer.confirmations >= required(transfer)) {
                transfer.status = PaymentTransfer.CONFIRMED;
                transfer.confirmedAt = now;
            } else {
                stillConfirming = true;
            }
        }
        if (stillConfirming) {
            confirming.add(network);
        } else {
            confirming.remove(network);
        }

        for (BlockRef block : blocks) {
            em.createNativeQuery("insert into chain_block (network, number, hash) values (:network, :number, :hash) "
                    + "on conflict (network, number) do update set hash = excluded.hash")
                    .setParameter("network", network).setParameter("number", block.number())
                    .setParameter("hash", block.hash()).executeUpdate();
        }
        em.createNativeQuery("delete from chain_block where network = :network and number < :oldest")
                .setParameter("network", network).setParameter("oldest", head - config.detection().reorgWindow())
                .executeUpdate();
        if (!blocks.isEmpty()) {
            cursor.blockNumber = head;
            cursor.blockHash = blocks.get(blocks.size() - 1).hash();
            cursor.updatedAt = now;
        }
        em.flush();
        settle(transactions.values(), detected, decisions);
        return true;
    }

    /**
     * A reorganisation: the chain above {@code fork} was replaced. Unconfirmed transfers in the replaced blocks are
     * dropped (a later pass finds them again if the new chain holds them), and the cursor moves back to the fork.
     */
    @Transactional
    public boolean rewind(String network, long expectedCursor, long fork, String forkHash) {
        ChainCursor cursor = lockCursor(network);
        if (cursor == null || cursor.blockNumber != expectedCursor) {
            return false;
        }
        List<PaymentTransfer> replaced = PaymentTransfer.list("network = ?1 and blockNumber > ?2 and status <> ?3",
                network, fork, PaymentTransfer.DROPPED);
        Set<UUID> affected = new TreeSet<>();
        replaced.forEach(t -> affected.add(t.transactionId));
        Map<UUID, Transaction> transactions = lockTransactions(affected);
        for (PaymentTransfer transfer : replaced) {
            if (transfer.status == PaymentTransfer.CONFIRMED) {
                LOG.errorf("Reorganisation on %s below the confirmations of transfer %s (block %d); it stays counted "
                        + "— raise minConfirms for this network", network, transfer.txnHash, transfer.blockNumber);
                continue;
            }
            transfer.status = PaymentTransfer.DROPPED;
            transfer.confirmations = 0;
        }
        em.createNativeQuery("delete from chain_block where network = :network and number > :fork")
                .setParameter("network", network).setParameter("fork", fork).executeUpdate();
        LOG.warnf("Reorganisation on %s: blocks above %d replaced (cursor was %d); %d transfer(s) affected",
                network, fork, expectedCursor, replaced.size());
        cursor.blockNumber = fork;
        cursor.blockHash = forkHash;
        cursor.updatedAt = Clock.now();
        em.flush();
        settle(transactions.values(), Set.of(), Map.of());
        return true;
    }

    /** Inserts a transfer seen for the first time (answered), or follows one into (another) block (null). */
    private PaymentTransfer record(String network, ChainTransfer seen, PaymentRequest request, Transaction tx,
            OffsetDateTime now) {
        PaymentTransfer transfer = PaymentTransfer.find("network = ?1 and txnHash = ?2 and position = ?3", network,
                seen.txnHash(), seen.position()).firstResult();
        if (transfer != null) {
            boolean moved = seen.blockNumber() != null && !seen.blockNumber().equals(transfer.blockNumber)
                    || seen.blockHash() != null && !seen.blockHash().equals(transfer.blockHash);
            if (moved && transfer.status != PaymentTransfer.CONFIRMED) {
                transfer.blockNumber = seen.blockNumber();
                transfer.blockHash = seen.blockHash();
                transfer.status = PaymentTransfer.CONFIRMING;
            }
            return null;
        }
        transfer = new PaymentTransfer();
        transfer.id = TimeOrderedIds.next();
        transfer.paymentRequestId = request.id;
        transfer.transactionId = request.transactionId;
        transfer.network = network;
        transfer.txnHash = seen.txnHash();
        transfer.position = seen.position();
        transfer.asset = seen.asset();
        transfer.fromAddress = seen.fromAddress();
        transfer.amount = seen.amount();
        transfer.blockNumber = seen.blockNumber();
        transfer.blockHash = seen.blockHash();
        transfer.confirmations = 0;
        transfer.status = PaymentTransfer.CONFIRMING;
        transfer.late = isLate(request, tx, now);
        transfer.detectedAt = now;
        transfer.persist();
        return transfer;
    }

    /** First seen after its request expired or was cancelled, or after the transaction ended other than paid. */
    static boolean isLate(PaymentRequest request, Transaction tx, OffsetDateTime now) {
        boolean requestEnded = request.state() == PaymentRequestState.EXPIRED
                || request.state() == PaymentRequestState.CANCELLED
                || request.state() == PaymentRequestState.AWAITING && now.isAfter(request.expiration);
        boolean transactionEnded = tx.state() == TransactionState.EXPIRED || tx.state() == TransactionState.CANCELLED
                || tx.state() == TransactionState.FORFEITED;
        return requestEnded || transactionEnded;
    }

    /**
     * Recomputes each transaction from its transfers with the compliance decisions on its new ones
     * ({@link Compliance#settle}); publishes payment_detected, success, held, cancelled as they happen.
     */
    private void settle(Collection<Transaction> transactions, Set<UUID> detected,
            Map<UUID, List<Compliance.Decision>> decisions) {
        for (Transaction tx : transactions) {
            compliance.settle(tx, decisions.getOrDefault(tx.id, List.of()), detected.contains(tx.id));
        }
    }

    private int required(PaymentTransfer transfer) {
        PaymentRequest request = PaymentRequest.findById(transfer.paymentRequestId);
        if (request.requiredConfirmations != null) {
            return request.requiredConfirmations;
        }
        // Requests opened before confirmations were fixed at opening: the merchant's current configuration.
        Transaction tx = Transaction.findById(request.transactionId);
        MerchantView merchant = MerchantView.findById(tx.merchantId);
        request.requiredConfirmations = merchant == null
                ? Catalogue.get().network(request.cryptoNetwork).orElseThrow().defaultMinConfirmsLow()
                : PaymentRequests.requiredConfirmations(merchant.config, request.cryptoAsset, request.cryptoNetwork,
                        tx.totalUSD);
        return request.requiredConfirmations;
    }

    /** The open payment requests among the recipients of {@code transfers}, by normalised address. */
    private Map<String, PaymentRequest> watchedAddresses(String network, List<ChainTransfer> transfers) {
        Set<String> recipients = new HashSet<>();
        transfers.forEach(t -> recipients.add(key(network, t.toAddress())));
        if (recipients.isEmpty()) {
            return Map.of();
        }
        Map<String, PaymentRequest> found = new HashMap<>();
        List<String> batch = new ArrayList<>(recipients);
        for (int from = 0; from < batch.size(); from += 1000) {
            List<String> part = batch.subList(from, Math.min(batch.size(), from + 1000));
            List<PaymentRequest> requests = evm(network)
                    ? PaymentRequest.list("cryptoNetwork = ?1 and lower(address) in ?2", network, part)
                    : PaymentRequest.list("cryptoNetwork = ?1 and address in ?2", network, part);
            requests.forEach(r -> found.put(key(network, r.address), r));
        }
        return found;
    }

    private Map<UUID, Transaction> lockTransactions(Collection<UUID> ids) {
        Map<UUID, Transaction> locked = new HashMap<>();
        for (UUID id : new TreeSet<>(ids)) {
            Transaction tx = Transaction.findById(id, LockModeType.PESSIMISTIC_WRITE);
            locked.put(id, tx);
        }
        return locked;
    }

    private ChainCursor lockCursor(String network) {
        List<ChainCursor> rows = em.createNativeQuery(
                "select * from chain_cursor where network = :network for update skip locked", ChainCursor.class)
                .setParameter("network", network).getResultList();
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** EVM addresses compare without case (EIP-55 checksums are a spelling); others exactly. */
    static String key(String network, String address) {
        return evm(network) ? address.toLowerCase(Locale.ROOT) : address;
    }

    private static boolean evm(String network) {
        return Catalogue.get().network(network).map(n -> "evm".equals(n.family())).orElse(false);
    }
}
