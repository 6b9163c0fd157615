package dev.cryptopay.transaction.service;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.TimeOrderedIds;
import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.idempotency.IdempotentCreations;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.transaction.chain.ChainAdapter;
import dev.cryptopay.transaction.chain.ChainAdapters;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Refund;
import dev.cryptopay.transaction.domain.RefundStatus;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.rates.Rates;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Refunds in the paid asset (docs/transactions.md "Refunds", docs/decisions.md §2, §3).
 *
 * <ul>
 * <li><b>Amount.</b> The fiat {@code amount} is in the transaction's currency; it becomes USD at the transaction's own
 * {@code fxRateToUSD} (the sale's exchange rate: the fiat amounts of one transaction stay comparable), and each leg's
 * USD becomes crypto at the asset's <em>current</em> rate, rounded down to the asset's smallest unit.</li>
 * <li><b>Legs.</b> Payment requests are used oldest first (creation time, then id): each gives at most what it still
 * has refundable, and pays back to the address its funds came from.</li>
 * <li><b>Cap.</b> Per payment request in crypto: the legs that did not fail never take more than its confirmed
 * received crypto, whatever the rate did since. Refunds of one transaction run under its row lock, so concurrent
 * calls cannot over-refund.</li>
 * <li><b>Gas.</b> The current network fee of a transfer of the asset (in the asset: a token's fee is converted at the
 * current rates, rounded up) is subtracted from what the payer receives unless {@code gasFeePayer} is
 * {@code merchant}. A leg that would be ≤ 0 after it is 409 {@code refund_below_gas_fee}.</li>
 * <li><b>Window.</b> {@code refundWindowHours} of the effective configuration (platform default 720), counted from
 * success, or from the last confirmed funds for a transaction that never succeeded.</li>
 * </ul>
 */
@ApplicationScoped
public class RefundService {

    private static final TypeReference<List<Leg>> LEGS = new TypeReference<>() {
    };

    private final MerchantAccess access;
    private final Rates rates;
    private final ChainAdapters chains;
    private final RefundEvents events;
    private final TransactionServiceConfig config;
    private final IdempotentCreations creations;

    public RefundService(MerchantAccess access, Rates rates, ChainAdapters chains, RefundEvents events,
            TransactionServiceConfig config, IdempotentCreations creations) {
        this.creations = creations;
        this.access = access;
        this.rates = rates;
        this.chains = chains;
        this.events = events;
        this.config = config;
    }

    /** What a refund call asks for; {@code gasFeePayer} is {@code customer} or {@code merchant}. */
    public record RefundCommand(BigDecimal amount, String reason, String gasFeePayer) {
    }

    /** One leg created: its id and the crypto the payer will receive. */
    public record Leg(String refundID, String assetAmount) {
    }

    /** {@code POST …/refund}: once per caller and Idempotency-Key ({@code idempotencyKey} may be null). */
    @Transactional
    public IdempotentCreations.Once<List<Leg>> refund(Caller caller, UUID pathAccount, String transactionId,
            RefundCommand command, String idempotencyKey) {
        caller.requireAccount(pathAccount);
        return creations.once(caller, idempotencyKey, List.of(transactionId, command), LEGS,
                () -> legs(caller, transactionId, command));
    }

    private List<Leg> legs(Caller caller, String transactionId, RefundCommand command) {
        Transaction tx = access.scope(caller).transaction(transactionId, true);
        tx.requireNotHeld();
        OffsetDateTime now = Clock.now();
        List<PaymentRequest> requests = PaymentRequest.ofTransaction(tx.id);
        List<PaymentTransfer> transfers = PaymentTransfer.ofTransaction(tx.id);
        Map<UUID, BigDecimal> refundable = refundable(requests, transfers, Refund.ofTransaction(tx.id));
        if (transfers.stream().noneMatch(t -> t.status == PaymentTransfer.CONFIRMED)) {
            throw ApiException.conflict("invalid_state",
                    transfers.stream().anyMatch(t -> t.status == PaymentTransfer.CONFIRMING)
                            ? "The transaction's funds are still confirming; refund them once they are confirmed."
                            : "The transaction has received no funds, so there is nothing to refund.");
        }
        if (refundable.values().stream().allMatch(r -> r.signum() <= 0)) {
            throw ApiException.conflict("refund_exceeds_paid", "Everything the transaction received is refunded.");
        }
        requireWindow(tx, transfers, now);

        BigDecimal amountUSD = command.amount().multiply(tx.fxRateToUSD);
        BigDecimal remainingUSD = amountUSD;
        List<Refund> legs = new ArrayList<>();
        for (PaymentRequest request : oldestFirst(requests)) {
            BigDecimal available = refundable.getOrDefault(request.id, BigDecimal.ZERO);
            if (remainingUSD.signum() <= 0 || available.signum() <= 0) {
                continue;
            }
            int decimals = decimals(request.cryptoAsset);
            BigDecimal rate = rates.cryptoToUSD(request.cryptoAsset);
            BigDecimal capacityUSD = available.multiply(rate);
            BigDecimal legUSD = remainingUSD.min(capacityUSD);
            BigDecimal gross = legUSD.compareTo(capacityUSD) == 0 ? available.setScale(decimals, RoundingMode.DOWN)
                    : legUSD.divide(rate, decimals, RoundingMode.DOWN);
            if (gross.signum() <= 0) {
                if (legs.isEmpty()) {
                    throw ApiException.conflict("refund_below_gas_fee", "The refund is smaller than the smallest "
                            + "unit of " + request.cryptoAsset + ".");
                }
                remainingUSD = BigDecimal.ZERO; // a remainder below one unit of the asset: nothing to send
                break;
            }
            // Legs of one call are a microsecond apart, so listings (by creation time) keep the legs' order.
            Refund leg = leg(tx, request, gross, legUSD, rate, command.gasFeePayer(), command.reason(),
                    Refund.FROM_REFUND, now.plusNanos(1_000L * legs.size()));
            legs.add(leg);
            remainingUSD = remainingUSD.subtract(legUSD);
        }
        if (remainingUSD.signum() > 0) {
            BigDecimal most = amountUSD.subtract(remainingUSD).divide(tx.fxRateToUSD, fiatDigits(tx), RoundingMode.DOWN);
            throw ApiException.conflict("refund_exceeds_paid", "The refund of " + Money.plain(command.amount()) + " "
                    + tx.currency + " exceeds what is still refundable at current rates (at most " + Money.plain(most)
                    + " " + tx.currency + ").");
        }
        List<Leg> answer = new ArrayList<>();
        for (Refund leg : legs) {
            leg.persist();
            events.publish(leg, EventTypes.REFUND_CREATED);
            answer.add(new Leg(leg.id.toString(), Money.plain(leg.cryptoAmount)));
        }
        return answer;
    }

    /**
     * The legs of a clean cancel (docs/decisions.md §2): all the crypto the transaction received, confirmed or still
     * confirming, goes back at each request's locked rate, with {@code gasFeePayer} {@code merchant} (the customer
     * did nothing wrong). Legs of confirming funds are paid out once those funds are confirmed.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void refundAllOnCancel(Transaction tx, String reason) {
        refundAll(tx, reason == null ? "cancelled" : reason, Refund.FROM_CANCEL);
    }

    /**
     * Legs for everything the transaction received (confirmed or still confirming, less legs already taken), at each
     * request's locked rate, {@code gasFeePayer} {@code merchant}: a clean cancel's, and a compliance refund's
     * (docs/decisions.md §63). Answers the legs created.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Refund> refundAll(Transaction tx, String reason, String origin) {
        OffsetDateTime now = Clock.now();
        List<Refund> created = new ArrayList<>();
        int index = 0;
        List<PaymentRequest> requests = PaymentRequest.ofTransaction(tx.id);
        List<PaymentTransfer> transfers = PaymentTransfer.ofTransaction(tx.id);
        List<Refund> existing = Refund.ofTransaction(tx.id);
        for (PaymentRequest request : oldestFirst(requests)) {
            BigDecimal received = transfers.stream()
                    .filter(t -> t.paymentRequestId.equals(request.id) && t.counts())
                    .map(t -> t.amount).reduce(BigDecimal.ZERO, BigDecimal::add);
            BigDecimal open = received.subtract(taken(existing, request.id))
                    .setScale(decimals(request.cryptoAsset), RoundingMode.DOWN);
            if (open.signum() <= 0) {
                continue;
            }
            Refund leg = leg(tx, request, open, open.multiply(request.cryptoFXRate), request.cryptoFXRate,
                    Refund.MERCHANT, reason, origin, now.plusNanos(1_000L * index++));
            leg.persist();
            events.publish(leg, EventTypes.REFUND_CREATED);
            created.add(leg);
        }
        return created;
    }

    /**
     * The automatic refund of an overpayment (docs/decisions.md §63): {@code excessUSD} goes back from the newest
     * payment requests first (the funds that overpaid), each leg at the request's locked rate, rounded down to the
     * asset's unit and capped at what the request still has refundable; the customer pays the network fee (the
     * excess is theirs). An excess whose leg would be ≤ 0 after the fee is not refunded. Answers the legs created.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Refund> refundExcess(Transaction tx, BigDecimal excessUSD, String reason) {
        OffsetDateTime now = Clock.now();
        List<PaymentRequest> requests = new ArrayList<>(oldestFirst(PaymentRequest.ofTransaction(tx.id)));
        java.util.Collections.reverse(requests);
        Map<UUID, BigDecimal> refundable = refundable(requests, PaymentTransfer.ofTransaction(tx.id),
                Refund.ofTransaction(tx.id));
        BigDecimal remainingUSD = excessUSD;
        List<Refund> created = new ArrayList<>();
        for (PaymentRequest request : requests) {
            BigDecimal available = refundable.getOrDefault(request.id, BigDecimal.ZERO);
            if (remainingUSD.signum() <= 0 || available.signum() <= 0 || request.fromAddress == null) {
                continue;
            }
            int decimals = decimals(request.cryptoAsset);
            BigDecimal gross = remainingUSD.divide(request.cryptoFXRate, decimals, RoundingMode.DOWN)
                    .min(available.setScale(decimals, RoundingMode.DOWN));
            BigDecimal gas = gasFee(request, request.cryptoFXRate, decimals);
            if (gross.subtract(gas).signum() <= 0) {
                continue;
            }
            BigDecimal usd = gross.multiply(request.cryptoFXRate);
            Refund leg = leg(tx, request, gross, usd, request.cryptoFXRate, Refund.CUSTOMER, reason,
                    Refund.FROM_COMPLIANCE, now.plusNanos(1_000L * created.size()));
            leg.persist();
            events.publish(leg, EventTypes.REFUND_CREATED);
            created.add(leg);
            remainingUSD = remainingUSD.subtract(usd);
        }
        return created;
    }

    private Refund leg(Transaction tx, PaymentRequest request, BigDecimal gross, BigDecimal usd, BigDecimal rate,
            String payer, String reason, String origin, OffsetDateTime now) {
        int decimals = decimals(request.cryptoAsset);
        BigDecimal gas = gasFee(request, rate, decimals);
        String gasFeePayer = payer == null ? Refund.CUSTOMER : payer;
        BigDecimal net = Refund.MERCHANT.equals(gasFeePayer) ? gross : gross.subtract(gas);
        if (net.signum() <= 0) {
            throw ApiException.conflict("refund_below_gas_fee", "After the network fee of " + Money.plain(gas) + " "
                    + request.cryptoAsset + " nothing would be left to refund from payment request " + request.id
                    + "; refund more, or pass gasFeePayer \"merchant\".");
        }
        if (request.fromAddress == null) {
            throw ApiException.conflict("invalid_state", "Payment request " + request.id
                    + " has no sender address to refund to.");
        }
        Refund leg = new Refund();
        leg.id = TimeOrderedIds.next();
        leg.transactionId = tx.id;
        leg.paymentRequestId = request.id;
        leg.accountId = tx.accountId;
        leg.merchantId = tx.merchantId;
        leg.cryptoAsset = request.cryptoAsset;
        leg.cryptoNetwork = request.cryptoNetwork;
        leg.grossCrypto = gross;
        leg.cryptoAmount = net;
        leg.amountUSD = Money.usd(usd);
        leg.fiatAmount = usd.divide(tx.fxRateToUSD, fiatDigits(tx), RoundingMode.HALF_EVEN);
        leg.fiatCurrency = tx.currency;
        leg.cryptoRate = rate;
        leg.gasFee = gas;
        leg.gasFeePayer = gasFeePayer;
        leg.receiverAddress = request.fromAddress;
        leg.status = RefundStatus.PENDING.wire();
        leg.reason = reason;
        leg.origin = origin;
        leg.confirmations = 0;
        leg.requiredConfirmations = requiredConfirmations(tx, request);
        leg.createdAt = now;
        leg.updatedAt = now;
        return leg;
    }

    /**
     * The operator's hand for networks paid out by hand (or a payout stuck on a node): moves a leg to broadcast
     * (with the payout's {@code txnHash}), completed or failed (with a {@code reason}), by the table of
     * {@link RefundStatus}; any other move is 409 invalid_state. Answers the leg as Get Transaction shows it.
     * A pending leg whose payout the treasury has already signed (RefundPayouts commits the signed transaction before
     * it sends it) may be on the chain at any moment: failing it would free its crypto for another refund and pay
     * the payer twice, another hash would never be followed. Such a leg only moves to broadcast with the signed
     * payout's own hash (else 409).
     */
    @Transactional
    public Refund operatorMove(String refundId, int status, String txnHash, String reason) {
        UUID id;
        try {
            id = UUID.fromString(refundId);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("Refund " + refundId);
        }
        Refund leg = Refund.<Refund>findByIdOptional(id, LockModeType.PESSIMISTIC_WRITE)
                .orElseThrow(() -> ApiException.notFound("Refund " + refundId));
        OffsetDateTime now = Clock.now();
        RefundStatus next = RefundStatus.of(status);
        if (leg.state() == RefundStatus.PENDING && leg.payoutRaw != null
                && !(next == RefundStatus.BROADCAST && leg.txnHash.equalsIgnoreCase(txnHash))) {
            throw ApiException.conflict("invalid_state", "The treasury has signed this refund's payout ("
                    + leg.txnHash + ") and may have sent it: it can only be marked broadcast with that txnHash.");
        }
        switch (next) {
            case BROADCAST -> {
                leg.broadcast(txnHash, now);
                events.publish(leg, EventTypes.REFUND_BROADCAST);
            }
            case COMPLETED -> {
                leg.complete(now);
                events.publish(leg, EventTypes.REFUND_COMPLETED);
            }
            case FAILED -> {
                leg.fail(reason, now);
                events.publish(leg, EventTypes.REFUND_FAILED);
            }
            default -> throw ApiException.conflict("invalid_state", "A refund cannot be moved back to pending.");
        }
        return leg;
    }

    /** Confirmed crypto each request received, less what its legs that did not fail take. */
    static Map<UUID, BigDecimal> refundable(List<PaymentRequest> requests, List<PaymentTransfer> transfers,
            List<Refund> refunds) {
        Map<UUID, BigDecimal> confirmed = transfers.stream().filter(t -> t.status == PaymentTransfer.CONFIRMED)
                .collect(Collectors.groupingBy(t -> t.paymentRequestId,
                        Collectors.reducing(BigDecimal.ZERO, t -> t.amount, BigDecimal::add)));
        return requests.stream().collect(Collectors.toMap(r -> r.id,
                r -> confirmed.getOrDefault(r.id, BigDecimal.ZERO).subtract(taken(refunds, r.id))));
    }

    private static BigDecimal taken(List<Refund> refunds, UUID requestId) {
        return refunds.stream().filter(r -> r.paymentRequestId.equals(requestId) && r.counts())
                .map(r -> r.grossCrypto).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    private void requireWindow(Transaction tx, List<PaymentTransfer> transfers, OffsetDateTime now) {
        OffsetDateTime from = tx.succeededAt != null ? tx.succeededAt : transfers.stream()
                .filter(t -> t.status == PaymentTransfer.CONFIRMED && t.confirmedAt != null)
                .map(t -> t.confirmedAt).max(Comparator.naturalOrder()).orElse(now);
        MerchantView merchant = MerchantView.findById(tx.merchantId);
        Integer configured = merchant == null ? null : merchant.config.refundWindowHours();
        int hours = configured != null ? configured : config.refunds().defaultWindowHours();
        if (now.isAfter(from.plusHours(hours))) {
            throw ApiException.conflict("refund_window_closed", "The refund window of " + hours + " hours closed at "
                    + from.plusHours(hours).toInstant() + (tx.state() == TransactionState.SUCCESS
                            ? " (counted from success)." : " (counted from the last received funds)."));
        }
    }

    /** The current fee of a transfer of the asset, in the asset (rounded up); 0 where no chain tells it. */
    private BigDecimal gasFee(PaymentRequest request, BigDecimal assetRate, int decimals) {
        ChainAdapter chain = chains.of(request.cryptoNetwork).orElse(null);
        if (chain == null) {
            return BigDecimal.ZERO.setScale(decimals);
        }
        BigDecimal nativeFee = chain.gasFee(request.cryptoAsset);
        String nativeAsset = Catalogue.get().network(request.cryptoNetwork).orElseThrow().nativeAsset();
        if (nativeAsset.equals(request.cryptoAsset)) {
            return nativeFee.setScale(decimals, RoundingMode.CEILING);
        }
        BigDecimal usd = nativeFee.multiply(rates.cryptoToUSD(nativeAsset));
        return usd.divide(assetRate, decimals, RoundingMode.CEILING);
    }

    private static int requiredConfirmations(Transaction tx, PaymentRequest request) {
        MerchantView merchant = MerchantView.findById(tx.merchantId);
        return merchant == null
                ? Catalogue.get().network(request.cryptoNetwork).orElseThrow().defaultMinConfirmsLow()
                : PaymentRequests.requiredConfirmations(merchant.config, request.cryptoAsset, request.cryptoNetwork,
                        BigDecimal.ZERO);
    }

    private static List<PaymentRequest> oldestFirst(List<PaymentRequest> requests) {
        return requests.stream().sorted(Comparator.comparing((PaymentRequest r) -> r.createdAt)
                .thenComparing(r -> r.id)).toList();
    }

    private static int decimals(String asset) {
        return Catalogue.get().asset(asset).orElseThrow().decimals();
    }

    private static int fiatDigits(Transaction tx) {
        return Math.max(0, Currency.getInstance(tx.currency).getDefaultFractionDigits());
    }
}
