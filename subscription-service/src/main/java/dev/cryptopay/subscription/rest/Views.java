package dev.cryptopay.subscription.rest;

import dev.cryptopay.subscription.domain.PaymentAttempt;
import dev.cryptopay.subscription.domain.Plan;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionEvent;
import dev.cryptopay.subscription.domain.SubscriptionPayment;
import dev.cryptopay.subscription.rest.SubscriptionDtos.AttemptView;
import dev.cryptopay.subscription.rest.SubscriptionDtos.EventData;
import dev.cryptopay.subscription.rest.SubscriptionDtos.EventView;
import dev.cryptopay.subscription.rest.SubscriptionDtos.ItemView;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PaymentView;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PlanView;
import dev.cryptopay.subscription.rest.SubscriptionDtos.SubscriptionView;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.UUID;

/** Entities to API bodies (the same bodies the events on payments.subscriptions.v1 carry). */
public final class Views {

    /** The {@code type} of a payment's one item: the plan's amount for the billed period. */
    public static final String ITEM_TYPE = "PLAN";

    private Views() {
    }

    public static PlanView plan(Plan p) {
        return new PlanView(p.id.toString(), p.accountId.toString(), str(p.merchantId), p.planName, p.description,
                p.billingInterval.name(), money(p.amount), p.currency, time(p.createdAt));
    }

    public static SubscriptionView subscription(Subscription s) {
        return new SubscriptionView(s.id.toString(), s.accountId.toString(), s.merchantId.toString(),
                s.planId.toString(), s.planName, s.customerEmail, s.walletAddress, s.asset, s.network,
                s.status.name(), s.billingInterval.name(), time(s.lastBillingAt), time(s.nextBillingAt),
                money(s.amount), s.currency, time(s.createdAt), time(s.updatedAt));
    }

    public static EventView event(SubscriptionEvent e) {
        return new EventView(time(e.createdAt), e.type.name(), new EventData(e.reason));
    }

    public static PaymentView payment(SubscriptionPayment p, List<PaymentAttempt> attempts) {
        return new PaymentView(p.id.toString(), p.subscriptionId.toString(), p.planId.toString(),
                p.accountId.toString(), p.merchantId.toString(),
                List.of(new ItemView(p.itemId.toString(), ITEM_TYPE, money(p.total))),
                attempts.stream().map(Views::attempt).toList(), money(p.total), p.status.name(), p.currency,
                money(p.amountPaid), time(p.billingDate), time(p.createdAt));
    }

    public static PaymentView payment(SubscriptionPayment p) {
        return payment(p, PaymentAttempt.ofPayment(p.id));
    }

    public static AttemptView attempt(PaymentAttempt a) {
        return new AttemptView(a.id.toString(), a.result.name(), a.network, a.asset, a.address, a.txnHash,
                money(a.amount), time(a.startedAt), time(a.completedAt), a.failureReason);
    }

    public static String money(BigDecimal amount) {
        return amount == null ? null : amount.toPlainString();
    }

    public static String time(OffsetDateTime time) {
        return time == null ? null : time.withOffsetSameInstant(ZoneOffset.UTC).format(DateTimeFormatter.ISO_INSTANT);
    }

    private static String str(UUID id) {
        return id == null ? null : id.toString();
    }
}
