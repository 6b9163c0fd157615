package dev.cryptopay.subscription.billing;

import dev.cryptopay.events.BillingRequest;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.TimeOrderedIds;
import dev.cryptopay.events.Topics;
import dev.cryptopay.subscription.config.SubscriptionConfig;
import dev.cryptopay.subscription.domain.AttemptResult;
import dev.cryptopay.subscription.domain.BillingCalendar;
import dev.cryptopay.subscription.domain.PaymentAttempt;
import dev.cryptopay.subscription.domain.PaymentStatus;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionPayment;
import dev.cryptopay.support.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * Creates subscription payments and opens their attempts. Opening an attempt writes a
 * {@code billing.transaction_requested} event on internal.billing.v1 through this service's outbox, in the same
 * transaction: transaction-service opens the transaction under the attempt's id (idempotently), and its events, which
 * it sends to internal.billing.v1 as well as to payments.transactions.v1 (docs/decisions.md §109), then move the
 * attempt (TransactionEventConsumer). The caller holds the subscription's lock.
 */
@ApplicationScoped
public class Billing {

    private final Outbox outbox;
    /**
     * How long transaction-service may still open an attempt's transaction: five sixths of the time after which the
     * billing job fails the attempt, so that the transaction's events have the last sixth to arrive here.
     */
    private final Duration openWithin;

    public Billing(Outbox outbox, SubscriptionConfig config) {
        this.outbox = outbox;
        this.openWithin = config.attemptOpenTimeout().multipliedBy(5).dividedBy(6);
    }

    /** The payment of the subscription's next period, PENDING with no attempt yet; it becomes the open payment. */
    @Transactional(Transactional.TxType.MANDATORY)
    public SubscriptionPayment newPayment(Subscription s, OffsetDateTime now) {
        SubscriptionPayment p = new SubscriptionPayment();
        p.id = TimeOrderedIds.next();
        p.subscriptionId = s.id;
        p.planId = s.planId;
        p.accountId = s.accountId;
        p.merchantId = s.merchantId;
        p.period = s.nextPeriod;
        p.billingDate = BillingCalendar.date(s.anchorAt.toInstant(), s.billingInterval, s.nextPeriod)
                .atOffset(now.getOffset());
        p.itemId = UUID.randomUUID();
        p.total = s.amount;
        p.currency = s.currency;
        p.status = PaymentStatus.PENDING;
        p.nextAttemptAt = now;
        p.createdAt = now;
        p.updatedAt = now;
        p.persist();
        s.openPaymentId = p.id;
        s.updatedAt = now;
        return p;
    }

    /** Opens an attempt for what the payment still owes and asks transaction-service for its transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public PaymentAttempt openAttempt(Subscription s, SubscriptionPayment p, OffsetDateTime now) {
        PaymentAttempt a = new PaymentAttempt();
        a.id = TimeOrderedIds.next();
        a.paymentId = p.id;
        a.result = AttemptResult.REQUESTED;
        a.network = s.network;
        a.asset = s.asset;
        a.requestedAmount = p.outstanding();
        a.startedAt = now;
        a.persist();
        p.openAttemptId = a.id;
        p.nextAttemptAt = null;
        p.updatedAt = now;
        outbox.append(Topics.BILLING, EventTypes.BILLING_TRANSACTION_REQUESTED, a.id.toString(),
                new BillingRequest(a.id.toString(), s.accountId.toString(), s.merchantId.toString(),
                        a.requestedAmount, p.currency, s.asset, s.network, p.id.toString(), null, s.customerEmail,
                        openWithin.toString()));
        return a;
    }
}
