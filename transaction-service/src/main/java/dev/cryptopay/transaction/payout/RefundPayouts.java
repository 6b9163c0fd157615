package dev.cryptopay.transaction.payout;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.jdbc.TransactionLocks;
import dev.cryptopay.support.lifecycle.Stopping;
import dev.cryptopay.support.time.IdleBackoff;
import dev.cryptopay.support.time.PacedJob;
import dev.cryptopay.transaction.chain.ChainAdapter;
import dev.cryptopay.transaction.chain.ChainAdapters;
import dev.cryptopay.transaction.chain.EvmChainAdapter;
import dev.cryptopay.transaction.chain.SandboxChain;
import dev.cryptopay.transaction.config.Environment;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Refund;
import dev.cryptopay.transaction.domain.RefundStatus;
import dev.cryptopay.transaction.service.RefundEvents;
import dev.cryptopay.transaction.service.RefundQueued;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.persistence.EntityManager;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Pays refund legs out of the platform's treasury and follows them to completion (docs/transactions.md "Refunds").
 *
 * <ul>
 * <li><b>Pending (0) → broadcast (2).</b> A leg waits while funds of its payment request are still confirming; it
 * fails when the confirmed funds left for it no longer cover it (a reorganisation took them). On a sandbox-chain
 * network the sandbox treasury sends it on the sandbox chain in the same database transaction. On an EVM network
 * with a treasury key the payout is signed and the signature stored first, then sent, then marked broadcast; a
 * stored signature is re-sent as it is until the node has it, and no other payout of that network is signed
 * meanwhile (one nonce at a time). A network without a treasury waits for the operator.</li>
 * <li><b>Broadcast (2) → completed (1) or failed (-1).</b> Once the payout is in a block, it completes at its
 * required confirmations (the merchant's {@code minConfirmsLow} for the asset); a reverted payout fails.</li>
 * </ul>
 * Legs are claimed with {@code for update skip locked}, so several replicas never handle one leg at once.
 *
 * <p>The job runs every {@code cryptopay.transaction.refunds.payout-interval} (1 s) while a leg is pending or
 * broadcast. While none is, it backs off like expiry (docs/decisions.md §98), up to
 * {@code cryptopay.detection.max-idle-interval} (30 s); a leg created or moved to broadcast in this replica brings it
 * back at once after that commit ({@link RefundQueued}).
 */
@ApplicationScoped
public class RefundPayouts {

    private static final Logger LOG = Logger.getLogger(RefundPayouts.class);

    private final EntityManager em;
    private final ChainAdapters chains;
    private final SandboxChain sandbox;
    private final RefundEvents events;
    private final Environment environment;
    private final TransactionServiceConfig config;
    /**
     * The EVM treasuries by network, built at the payouts' first run on their own thread ({@link #treasuries()}), not
     * when the bean is created at the start.
     */
    private Map<String, EvmTreasury> treasuries;
    /** The payouts' thread and the pace of their runs (§105). */
    private final PacedJob job;
    private final Stopping stopping;

    public RefundPayouts(EntityManager em, ChainAdapters chains, SandboxChain sandbox, RefundEvents events,
            Environment environment, TransactionServiceConfig config, Stopping stopping,
            @ConfigProperty(name = "cryptopay.detection.max-idle-interval", defaultValue = "30s") Duration maxIdle) {
        this.job = new PacedJob("refund-payouts", new IdleBackoff(config.refunds().payoutInterval(), maxIdle),
                timed -> !config.detection().enabled() || payOutAndFollow());
        this.em = em;
        this.chains = chains;
        this.sandbox = sandbox;
        this.events = events;
        this.environment = environment;
        this.config = config;
        this.stopping = stopping;
        // A malformed key still stops the start; only building the wallets waits for the first run.
        config.refunds().treasury().forEach((network, treasury) -> EvmTreasury.checkKey(network,
                treasury.privateKey()));
    }

    /**
     * The treasury of each EVM network with a key, built once, on the payouts' thread. Building one creates the
     * network's chain adapter (web3j's HTTP client, which reads the JDK's trust store) and derives the key's address
     * (Bouncy Castle's curve tables): done when the bean was created, at the start, that was 13% of the main thread's
     * samples before the service was ready, about 0.1 s (docs/performance.md, twenty-sixth step).
     */
    private synchronized Map<String, EvmTreasury> treasuries() {
        if (treasuries == null) {
            Map<String, EvmTreasury> built = new HashMap<>();
            config.refunds().treasury().forEach((network, treasury) -> chains.of(network)
                    .filter(EvmChainAdapter.class::isInstance).map(EvmChainAdapter.class::cast)
                    .ifPresentOrElse(node -> built.put(network, new EvmTreasury(network, node.web3j(),
                            node.chainId(), treasury.privateKey())),
                            () -> LOG.warnf("A treasury key is configured for %s, which is not watched on an EVM "
                                    + "node; its refunds are paid out by hand", network)));
            treasuries = built;
        }
        return treasuries;
    }

    /** The first run comes three seconds after the start. */
    void start(@Observes StartupEvent event) {
        job.start(Duration.ofSeconds(3));
    }

    void stop(@Observes ShutdownEvent event) {
        job.stop();
    }

    /** Pays out the pending legs and follows the broadcast ones; answers whether the run was idle (neither). */
    private boolean payOutAndFollow() {
        try {
            // Built at the first run even with nothing to pay, so that a key without an EVM node is reported then.
            treasuries();
            List<UUID> pending = ids(RefundStatus.PENDING);
            for (UUID id : pending) {
                payOut(id);
            }
            List<UUID> broadcast = ids(RefundStatus.BROADCAST);
            for (UUID id : broadcast) {
                QuarkusTransaction.requiringNew().run(() -> follow(id));
            }
            return pending.isEmpty() && broadcast.isEmpty();
        } catch (RuntimeException e) {
            stopping.paused(LOG, "Refund payouts paused until the next run: %s", e.getMessage());
            return false;
        }
    }

    /** A leg was created or moved to broadcast here: back to the interval. */
    void onQueued(@Observes(during = TransactionPhase.AFTER_SUCCESS) RefundQueued event) {
        job.wake();
    }

    /** The current delay between runs (for tests and the performance notes). */
    public Duration idleDelay() {
        return job.delay();
    }

    private List<UUID> ids(RefundStatus status) {
        return QuarkusTransaction.requiringNew().call(() -> em.createQuery(
                "select r.id from Refund r where r.status = ?1 order by r.createdAt, r.id", UUID.class)
                .setParameter(1, status.wire()).setMaxResults(config.refunds().payoutBatch()).getResultList());
    }

    /** A payout signed and stored, and the treasury that sends it. */
    private record Signing(EvmTreasury treasury, EvmTreasury.Signed payout) {
    }

    /** One pending leg: sent in one step on the sandbox chain, or signed, sent and marked on an EVM node. */
    void payOut(UUID id) {
        Signing signing = QuarkusTransaction.requiringNew().call(() -> {
            Refund leg = claim(id, RefundStatus.PENDING);
            if (leg == null || !fundsStillThere(leg)) {
                return null;
            }
            if (chains.simulated(leg.cryptoNetwork)) {
                String hash = sandbox.transfer(leg.accountId, new SandboxChain.TransferCommand(leg.cryptoNetwork,
                        leg.cryptoAsset, leg.receiverAddress, leg.cryptoAmount.toPlainString(), null, 0)).txnHash();
                broadcast(leg, hash);
                return null;
            }
            EvmTreasury treasury = treasuries().get(leg.cryptoNetwork);
            if (treasury == null) {
                return null; // paid out by hand: the operator marks it
            }
            if (leg.payoutRaw == null) {
                lockNetwork(leg.cryptoNetwork);
                if (Refund.count("cryptoNetwork = ?1 and status = ?2 and payoutRaw is not null and id <> ?3",
                        leg.cryptoNetwork, RefundStatus.PENDING.wire(), leg.id) > 0) {
                    return null; // an earlier payout still has to reach the node: one nonce at a time
                }
                EvmTreasury.Signed payout = treasury.sign(leg.receiverAddress, leg.cryptoAmount,
                        tokenContract(leg), Catalogue.get().asset(leg.cryptoAsset).orElseThrow().decimals());
                leg.payoutRaw = payout.raw();
                leg.txnHash = payout.txnHash();
                leg.updatedAt = Clock.now();
            }
            return new Signing(treasury, new EvmTreasury.Signed(leg.txnHash, leg.payoutRaw));
        });
        if (signing == null) {
            return;
        }
        EvmTreasury.Signed signed = signing.payout();
        boolean sent = signing.treasury().send(signed);
        QuarkusTransaction.requiringNew().run(() -> {
            Refund leg = claim(id, RefundStatus.PENDING);
            if (leg == null) {
                return;
            }
            if (sent) {
                broadcast(leg, signed.txnHash());
            } else {
                LOG.warnf("Payout of refund %s was signed with a nonce the treasury used meanwhile; signing it again",
                        id);
                leg.txnHash = null;
            }
            leg.payoutRaw = null;
        });
    }

    /** One broadcast leg: its confirmations, then completed; failed when the chain reverted it. */
    void follow(UUID id) {
        Refund leg = claim(id, RefundStatus.BROADCAST);
        if (leg == null || leg.txnHash == null) {
            return;
        }
        Optional<ChainAdapter> chain = chains.of(leg.cryptoNetwork);
        if (chain.isEmpty()) {
            return; // paid out by hand: the operator completes it
        }
        Optional<ChainAdapter.Inclusion> inclusion = chain.get().inclusion(leg.txnHash);
        if (inclusion.isEmpty()) {
            return;
        }
        if (!inclusion.get().succeeded()) {
            leg.fail("the payout transaction reverted on chain", Clock.now());
            events.publish(leg, EventTypes.REFUND_FAILED);
            return;
        }
        leg.blockNumber = inclusion.get().blockNumber();
        int confirmations = (int) Math.min(Integer.MAX_VALUE, chain.get().head() - leg.blockNumber + 1);
        if (confirmations == leg.confirmations) {
            return;
        }
        leg.confirmations = confirmations;
        leg.updatedAt = Clock.now();
        if (confirmations >= leg.requiredConfirmations) {
            leg.complete(Clock.now());
            events.publish(leg, EventTypes.REFUND_COMPLETED);
        }
    }

    /**
     * Whether the leg can go: false while funds of its request are still confirming (it waits); when they are all
     * settled and the confirmed funds left for it no longer cover it, the leg fails.
     */
    private boolean fundsStillThere(Refund leg) {
        List<PaymentTransfer> transfers = PaymentTransfer.list("paymentRequestId", leg.paymentRequestId);
        if (transfers.stream().anyMatch(t -> t.status == PaymentTransfer.CONFIRMING)) {
            return false;
        }
        BigDecimal confirmed = transfers.stream().filter(t -> t.status == PaymentTransfer.CONFIRMED)
                .map(t -> t.amount).reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal paidOut = Refund.<Refund>list("paymentRequestId = ?1 and status in (?2, ?3) and id <> ?4",
                leg.paymentRequestId, RefundStatus.BROADCAST.wire(), RefundStatus.COMPLETED.wire(), leg.id).stream()
                .map(r -> r.grossCrypto).reduce(BigDecimal.ZERO, BigDecimal::add);
        if (confirmed.subtract(paidOut).compareTo(leg.grossCrypto) < 0) {
            leg.fail("the funds it refunds are no longer on the chain", Clock.now());
            events.publish(leg, EventTypes.REFUND_FAILED);
            return false;
        }
        return true;
    }

    private void broadcast(Refund leg, String hash) {
        leg.broadcast(hash, Clock.now());
        events.publish(leg, EventTypes.REFUND_BROADCAST);
    }

    private Refund claim(UUID id, RefundStatus status) {
        @SuppressWarnings("unchecked")
        List<Refund> rows = em.createNativeQuery(
                "select * from refund where id = :id and status = :status for update skip locked", Refund.class)
                .setParameter("id", id).setParameter("status", status.wire()).getResultList();
        return rows.isEmpty() ? null : rows.get(0);
    }

    private void lockNetwork(String network) {
        TransactionLocks.take("treasury:" + network);
    }

    private String tokenContract(Refund leg) {
        Catalogue.Network network = Catalogue.get().network(leg.cryptoNetwork).orElseThrow();
        Catalogue.Asset asset = Catalogue.get().asset(leg.cryptoAsset).orElseThrow();
        return Environment.isNative(network, asset) ? null
                : environment.tokenContract(leg.cryptoNetwork, leg.cryptoAsset).orElseThrow();
    }
}
