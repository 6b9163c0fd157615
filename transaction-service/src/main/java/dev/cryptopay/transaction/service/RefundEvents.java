package dev.cryptopay.transaction.service;

import dev.cryptopay.events.Topics;
import dev.cryptopay.support.outbox.Outbox;
import dev.cryptopay.transaction.domain.Refund;
import dev.cryptopay.transaction.domain.RefundStatus;
import dev.cryptopay.transaction.view.TransactionViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;

/**
 * Refund events on {@code payments.refunds.v1} through the outbox, keyed by refundID (docs/decisions.md §7, §8): one per
 * change of a leg ({@code refund.created}, {@code .broadcast}, {@code .completed}, {@code .failed}), each carrying the
 * leg as it now stands with a {@code version} that grows by one per event.
 */
@ApplicationScoped
public class RefundEvents {

    private final Outbox outbox;
    private final Event<RefundQueued> queued;

    public RefundEvents(Outbox outbox, Event<RefundQueued> queued) {
        this.outbox = outbox;
        this.queued = queued;
    }

    /** The data of a refund event (docs/asyncapi.yaml, RefundEvent). */
    public record RefundEventData(String refundID, String transactionID, String accountID, String merchantID,
            String paymentRequestID, String cryptoAsset, String cryptoNetwork, BigDecimal cryptoAmount,
            BigDecimal fiatAmount, String fiatCurrency, BigDecimal amountUSD, BigDecimal gasFee, String gasFeePayer,
            String receiverAddress, int status, String reason, String txnHash, int confirmations,
            String failureReason, String createdAt, String updatedAt, String completedAt, long version) {
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void publish(Refund leg, String type) {
        leg.version++;
        outbox.append(Topics.REFUNDS, type, leg.id.toString(), data(leg));
        if (leg.status == RefundStatus.PENDING.wire() || leg.status == RefundStatus.BROADCAST.wire()) {
            queued.fire(new RefundQueued()); // the payout job stops idling after the commit (docs/decisions.md §98)
        }
    }

    static RefundEventData data(Refund r) {
        return new RefundEventData(r.id.toString(), r.transactionId.toString(), r.accountId.toString(),
                r.merchantId.toString(), r.paymentRequestId.toString(), r.cryptoAsset, r.cryptoNetwork,
                r.cryptoAmount, r.fiatAmount, r.fiatCurrency, r.amountUSD, r.gasFee, r.gasFeePayer,
                r.receiverAddress, r.status, r.reason, r.txnHash, r.confirmations, r.failureReason,
                TransactionViews.time(r.createdAt), TransactionViews.time(r.updatedAt),
                TransactionViews.time(r.completedAt), r.version);
    }
}
