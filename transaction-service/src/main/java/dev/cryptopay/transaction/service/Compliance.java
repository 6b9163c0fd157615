package dev.cryptopay.transaction.service;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.transaction.domain.Clock;
import dev.cryptopay.transaction.domain.MerchantFees;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.domain.PaymentRequest;
import dev.cryptopay.transaction.domain.PaymentRequestState;
import dev.cryptopay.transaction.domain.PaymentStatus;
import dev.cryptopay.transaction.domain.PaymentTransfer;
import dev.cryptopay.transaction.domain.Refund;
import dev.cryptopay.transaction.domain.ResolutionLog.Outcome;
import dev.cryptopay.transaction.domain.ResolutionLog.Trigger;
import dev.cryptopay.transaction.domain.ResolutionLog;
import dev.cryptopay.transaction.domain.Settlement;
import dev.cryptopay.transaction.domain.Transaction;
import dev.cryptopay.transaction.domain.TransactionState;
import dev.cryptopay.transaction.kyc.KycPolicy;
import dev.cryptopay.transaction.screening.ScreeningLists;
import dev.cryptopay.transaction.screening.ScreeningProvider;
import dev.cryptopay.transaction.screening.ScreeningResult;
import dev.cryptopay.transaction.screening.ScreeningUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Compliance decisions on payments (docs/decisions.md §59–§63): screening of each incoming transfer's sender and of
 * the payer wallet a payment request names, the trigger table, holds, automatic refunds and the operator's release
 * and refund. Every decision appends a {@link ResolutionLog} entry to the transaction.
 *
 * <p>The trigger table, for a new transfer to a pending transaction:
 * <ul>
 * <li>sender listed {@code sanctioned} → {@code sanction}, {@code high-risk} → {@code aml}, {@code fraud} →
 * {@code fraud}; the provider could not answer → {@code vendor-status}. The account's
 * {@code autoRefundConfig.<trigger>} on: the transaction moves to -2 and every received fund goes back (refund legs,
 * {@code gasFeePayer} merchant); off (or unset): held for review, status 0, no success.</li>
 * <li>sender listed {@code custodial-exchange}, not the wallet the payment request declared, on a transaction not
 * verified yet, where the custodial KYC or travel-rule threshold applies → held for review ({@code custodial}; no
 * switch: the operator releases or refunds it).</li>
 * <li>confirmed funds exceed the amount due (paymentStatus 4) → {@code overpayment}: switch on, the transaction
 * succeeds and the excess goes back; off, it is held instead of succeeding.</li>
 * </ul>
 */
@ApplicationScoped
public class Compliance {

    private static final Logger LOG = Logger.getLogger(Compliance.class);

    /** {@code payment_transfer.screening} when the provider could not answer. */
    public static final String UNAVAILABLE = "unavailable";

    private final ScreeningProvider provider;
    private final RefundService refunds;
    private final TransactionEvents events;
    private final Event<Opened> opened;

    public Compliance(ScreeningProvider provider, RefundService refunds, TransactionEvents events,
            Event<Opened> opened) {
        this.provider = provider;
        this.refunds = refunds;
        this.events = events;
        this.opened = opened;
    }

    /** What a decision does. */
    public enum Action {
        NONE, HOLD, REFUND
    }

    /** One row of the trigger table applied. */
    public record Decision(Action action, Trigger trigger, String rule, BigDecimal threshold, String detail) {
        static final Decision NONE = new Decision(Action.NONE, null, null, null, null);
    }

    /** The payer wallet a payment request names; null when the provider cannot answer. */
    public ScreeningResult screenWallet(String network, String wallet) {
        try {
            return provider.screen(network, wallet);
        } catch (ScreeningUnavailableException e) {
            LOG.warnf("Payer wallet not screened: %s", e.getMessage());
            return null;
        }
    }

    /**
     * Screens a transfer's sender when it is first seen: the verdict stays on the transfer, and the request's
     * {@code fraudPass} becomes false once any sender does not pass (true while all are clean or custodial; left
     * as it was when the provider cannot answer).
     */
    public void screen(PaymentTransfer transfer, PaymentRequest request) {
        try {
            ScreeningResult result = provider.screen(transfer.network, transfer.fromAddress);
            transfer.screening = result.category().wire();
            transfer.screeningSource = result.source();
            request.fraudPass = (request.fraudPass == null || request.fraudPass) && result.passes();
        } catch (ScreeningUnavailableException e) {
            LOG.warnf("Transfer %s not screened: %s", transfer.txnHash, e.getMessage());
            transfer.screening = UNAVAILABLE;
        }
    }

    /** The trigger table for one transfer just seen (see the class comment); NONE for a clean sender. */
    public Decision decide(Transaction tx, PaymentRequest request, PaymentTransfer transfer,
            MerchantConfiguration config) {
        if (tx.state() != TransactionState.PENDING || transfer.late || transfer.screening == null) {
            return Decision.NONE;
        }
        String detail = transfer.screening + (transfer.screeningSource == null ? "" : " " + transfer.screeningSource)
                + " " + transfer.network + " " + transfer.txnHash;
        Trigger trigger;
        String key;
        switch (transfer.screening) {
            case "sanctioned" -> {
                trigger = Trigger.SANCTION;
                key = "sanction";
            }
            case "high-risk" -> {
                trigger = Trigger.AML;
                key = "aml";
            }
            case "fraud" -> {
                trigger = Trigger.FRAUD;
                key = "fraud";
            }
            case UNAVAILABLE -> {
                trigger = Trigger.VENDOR_STATUS;
                key = "vendorStatus";
            }
            case "custodial-exchange" -> {
                return custodial(tx, request, transfer, config, detail);
            }
            default -> {
                return Decision.NONE;
            }
        }
        return new Decision(autoRefund(config, key) ? Action.REFUND : Action.HOLD, trigger, "autoRefundConfig." + key,
                null, detail);
    }

    private static Decision custodial(Transaction tx, PaymentRequest request, PaymentTransfer transfer,
            MerchantConfiguration config, String detail) {
        boolean declared = request.wallet != null && ScreeningLists.addressKey(transfer.network, request.wallet.strip())
                .equals(ScreeningLists.addressKey(transfer.network, transfer.fromAddress));
        if (declared || tx.kycDetails != null) {
            return Decision.NONE;
        }
        KycPolicy.Decision gate = KycPolicy.decide(config, tx.totalLocal, true);
        if (!gate.verificationRequired()) {
            return Decision.NONE;
        }
        return new Decision(Action.HOLD, Trigger.CUSTODIAL, gate.kycTriggered() ? "kycThresholdCustodial"
                : "travelRulesRegionalThresholdCustodial", gate.kycTriggered() ? gate.kycThreshold()
                        : gate.travelRuleThreshold(), "undeclared " + detail);
    }

    /** The account's {@code autoRefundConfig.<key>}; unset is off (hold: a person decides). */
    public static boolean autoRefund(MerchantConfiguration config, String key) {
        Map<String, Boolean> switches = config == null ? null : config.autoRefundConfig();
        return switches != null && Boolean.TRUE.equals(switches.get(key));
    }

    /**
     * Applies the decisions on the transfers a detection pass found for one transaction, and settles it: a hold or
     * refund decision keeps it from succeeding; a refund moves it to -2 with legs for all it received; a hold keeps
     * it at 0 with {@code heldForReview} ({@code transaction.held} once); otherwise it settles as usual, an overpayment
     * refunded or held by its switch. Publishes {@code transaction.payment_detected} when {@code detected}.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void settle(Transaction tx, List<Decision> decisions, boolean detected) {
        MerchantView merchant = MerchantView.findById(tx.merchantId);
        MerchantConfiguration config = merchant == null ? null : merchant.config;
        List<Decision> acting = decisions.stream().filter(d -> d.action() != Action.NONE).toList();
        boolean wasHeld = tx.heldForReview;
        if (!acting.isEmpty()) {
            tx.heldForReview = true;
        }
        List<PaymentRequest> requests = PaymentRequest.ofTransaction(tx.id);
        Settlement.Outcome outcome = Settlement.apply(tx, requests, PaymentTransfer.ofTransaction(tx.id),
                !autoRefund(config, "overpayment"));
        tx.updatedAt = Clock.now();
        if (detected) {
            events.publish(EventTypes.TRANSACTION_PAYMENT_DETECTED, tx);
        }
        Decision refund = acting.stream().filter(d -> d.action() == Action.REFUND).findFirst().orElse(null);
        if (refund != null) {
            // one refund answers every trigger of the pass: the others are logged as refunded with it
            acting.stream().filter(d -> d != refund).forEach(d -> log(tx, d, Outcome.REFUNDED, ResolutionLog.SYSTEM));
            refundAll(tx, refund, ResolutionLog.SYSTEM);
            return;
        }
        if (!acting.isEmpty()) {
            acting.forEach(d -> log(tx, d, Outcome.HELD, ResolutionLog.SYSTEM));
            if (!wasHeld) {
                events.publish(EventTypes.TRANSACTION_HELD, tx);
            }
            return;
        }
        if (outcome.heldOverpaid()) {
            log(tx, new Decision(Action.HOLD, Trigger.OVERPAYMENT, "autoRefundConfig.overpayment", Settlement.due(tx),
                    "received " + tx.receivedUSD + " USD"), Outcome.HELD, ResolutionLog.SYSTEM);
            events.publish(EventTypes.TRANSACTION_HELD, tx);
            return;
        }
        if (outcome.succeeded()) {
            succeed(tx, merchant);
        }
    }

    /** Publishes success; an overpaid success with {@code autoRefundConfig.overpayment} on refunds the excess. */
    private void succeed(Transaction tx, MerchantView merchant) {
        tx.merchantFees = merchant == null ? null : MerchantFees.of(merchant.config);
        events.publish(EventTypes.TRANSACTION_SUCCESS, tx);
        if (tx.paymentStatus == PaymentStatus.OVERPAID.wire() && autoRefund(merchant == null ? null : merchant.config,
                "overpayment")) {
            BigDecimal excess = tx.receivedUSD.subtract(Settlement.due(tx));
            List<Refund> legs;
            try {
                legs = refunds.refundExcess(tx, excess, "overpayment");
            } catch (ApiException e) {
                // no rate for the network fee: the success stands, the excess waits for a refund by hand
                log(tx, new Decision(Action.REFUND, Trigger.OVERPAYMENT, "autoRefundConfig.overpayment",
                        Settlement.due(tx), "excess not refunded: " + e.getMessage()), Outcome.PASSED,
                        ResolutionLog.SYSTEM);
                return;
            }
            log(tx, new Decision(Action.REFUND, Trigger.OVERPAYMENT, "autoRefundConfig.overpayment",
                    Settlement.due(tx), legs.isEmpty() ? "excess of " + excess.setScale(2, java.math.RoundingMode.DOWN)
                            + " USD below the network fee; not refunded" : "excess refunded: " + legIds(legs)),
                    legs.isEmpty() ? Outcome.PASSED : Outcome.REFUNDED, ResolutionLog.SYSTEM);
        }
    }

    /**
     * The operator releases a held transaction ({@code transaction.released}): it settles as if never held and
     * succeeds ({@code transaction.success}) when its confirmed funds cover the amount due.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void release(Transaction tx, String operator, String reason) {
        requireHeld(tx);
        tx.heldForReview = false;
        tx.updatedAt = Clock.now();
        log(tx, new Decision(Action.NONE, lastHeldTrigger(tx), "operator.release", null, reason), Outcome.RELEASED,
                ResolutionLog.operator(operator));
        events.publish(EventTypes.TRANSACTION_RELEASED, tx);
        Settlement.Outcome outcome = Settlement.apply(tx, PaymentRequest.ofTransaction(tx.id),
                PaymentTransfer.ofTransaction(tx.id), false);
        if (outcome.succeeded()) {
            MerchantView merchant = MerchantView.findById(tx.merchantId);
            tx.merchantFees = merchant == null ? null : MerchantFees.of(merchant.config);
            events.publish(EventTypes.TRANSACTION_SUCCESS, tx);
        } else {
            // Open again for expiry, which left it to the operator while held and may sleep until its next known
            // expiration: after the commit it runs within a second (docs/decisions.md §126).
            opened.fire(Opened.withoutRequest());
        }
    }

    /** The operator refunds a held transaction: -2, legs for everything received. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void refundHeld(Transaction tx, String operator, String reason) {
        requireHeld(tx);
        refundAll(tx, new Decision(Action.REFUND, lastHeldTrigger(tx), "operator.refund", null, reason),
                ResolutionLog.operator(operator));
    }

    private static void requireHeld(Transaction tx) {
        if (!tx.heldForReview || tx.state() != TransactionState.PENDING) {
            throw ApiException.conflict("invalid_state", "The transaction is not held for review.");
        }
    }

    /** -2 with refund legs for everything received, the requests still awaiting funds cancelled. */
    private void refundAll(Transaction tx, Decision decision, String actor) {
        tx.heldForReview = false;
        tx.moveTo(TransactionState.CANCELLED);
        tx.cancellationReason = "compliance: " + decision.trigger().wire();
        tx.updatedAt = Clock.now();
        for (PaymentRequest request : PaymentRequest.ofTransaction(tx.id)) {
            if (request.state() == PaymentRequestState.AWAITING) {
                request.moveTo(PaymentRequestState.CANCELLED);
            }
        }
        List<Refund> legs = refunds.refundAll(tx, "compliance: " + decision.trigger().wire(), Refund.FROM_COMPLIANCE);
        String detail = (decision.detail() == null ? "" : decision.detail() + "; ") + "refunds: " + legIds(legs);
        log(tx, new Decision(decision.action(), decision.trigger(), decision.rule(), decision.threshold(), detail),
                Outcome.REFUNDED, actor);
        events.publish(EventTypes.TRANSACTION_CANCELLED, tx);
    }

    /** The trigger of the latest hold (what the operator's decision answers). */
    private static Trigger lastHeldTrigger(Transaction tx) {
        List<ResolutionLog> logs = tx.resolutionLogs == null ? List.of() : tx.resolutionLogs;
        for (int i = logs.size() - 1; i >= 0; i--) {
            if (logs.get(i).outcome() == Outcome.HELD) {
                return logs.get(i).trigger();
            }
        }
        return Trigger.SCREENING;
    }

    public static void log(Transaction tx, Decision d, Outcome outcome, String actor) {
        tx.logResolution(new ResolutionLog(Clock.now().toInstant().toString(), d.trigger(), d.rule(), d.threshold(),
                outcome, actor, truncate(d.detail())));
    }

    private static String legIds(List<Refund> legs) {
        return legs.isEmpty() ? "none" : String.join(",", legs.stream().map(l -> l.id.toString()).toList());
    }

    private static String truncate(String text) {
        return text == null || text.length() <= 1000 ? text : text.substring(0, 1000);
    }
}
