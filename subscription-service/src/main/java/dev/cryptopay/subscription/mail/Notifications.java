package dev.cryptopay.subscription.mail;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.subscription.domain.MerchantView;
import dev.cryptopay.subscription.domain.Notification;
import dev.cryptopay.subscription.domain.PaymentAttempt;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionPayment;
import dev.cryptopay.subscription.rest.Views;
import dev.cryptopay.support.jdbc.AfterCommit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * Decides which e-mails a billing outcome sends, as the account's two switches say (carried in the merchant view):
 * {@code subscriptionsEmailCustomerOnPaymentFailed} — the customer hears of every failed payment attempt;
 * {@code subscriptionsEmailMerchantOnPaymentAttemptsExceeded} — the account's e-mail hears when a payment has used
 * all its automatic attempts. A switch that is not set is off. E-mails are queued in the caller's transaction
 * (table notification) and sent by {@link MailSender} once it committed.
 */
@ApplicationScoped
public class Notifications {

    private static final Object WAKE = new Object();

    private final TransactionSynchronizationRegistry transactions;
    private final MailSender sender;

    public Notifications(TransactionSynchronizationRegistry transactions, MailSender sender) {
        this.transactions = transactions;
        this.sender = sender;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void attemptFailed(Subscription s, SubscriptionPayment p, PaymentAttempt a, OffsetDateTime nextAttemptAt,
            OffsetDateTime now) {
        MerchantConfiguration config = config(s);
        if (config == null || !Boolean.TRUE.equals(config.subscriptionsEmailCustomerOnPaymentFailed())) {
            return;
        }
        String merchant = merchantName(config);
        String next = nextAttemptAt == null ? "No further attempt will be made automatically; please contact "
                + merchant + "." : "We will ask for it again on " + Views.time(nextAttemptAt) + ".";
        queue(s.customerEmail, "Your payment to " + merchant + " failed",
                "Hello,\n\nthe payment of " + p.outstanding().toPlainString() + " " + p.currency + " for your "
                        + "subscription " + label(s) + " (" + s.asset + " on " + s.network + ") did not arrive: "
                        + a.failureReason + ".\n" + next + "\n\nSubscription: " + s.id + "\nPayment: " + p.id + "\n",
                Notification.CUSTOMER_PAYMENT_FAILED, now);
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void attemptsExhausted(Subscription s, SubscriptionPayment p, int attempts, OffsetDateTime now) {
        MerchantConfiguration config = config(s);
        if (config == null || config.accountEmail() == null
                || !Boolean.TRUE.equals(config.subscriptionsEmailMerchantOnPaymentAttemptsExceeded())) {
            return;
        }
        queue(config.accountEmail(), "Subscription payment failed after " + attempts + " attempts",
                "Hello,\n\nthe payment " + p.id + " of " + p.total.toPlainString() + " " + p.currency
                        + " for subscription " + s.id + " (" + label(s) + ", customer " + s.customerEmail
                        + ") failed after " + attempts + " attempts. The subscription is " + s.status
                        + ". You can retry it with PUT /subscriptionpayments/" + s.id + "/retry.\n",
                Notification.MERCHANT_ATTEMPTS_EXCEEDED, now);
    }

    private void queue(String recipient, String subject, String body, String kind, OffsetDateTime now) {
        Notification n = new Notification();
        n.id = UUID.randomUUID();
        n.recipient = recipient;
        n.subject = subject;
        n.body = body;
        n.kind = kind;
        n.createdAt = now;
        n.nextTryAt = OffsetDateTime.now();
        n.persist();
        wakeSenderAfterCommit();
    }

    private void wakeSenderAfterCommit() {
        AfterCommit.run(transactions, WAKE, sender::wake);
    }

    private static MerchantConfiguration config(Subscription s) {
        MerchantView view = MerchantView.findById(s.merchantId);
        return view == null ? null : view.config;
    }

    private static String merchantName(MerchantConfiguration config) {
        return config.dba() != null && !config.dba().isBlank() ? config.dba() : config.name();
    }

    private static String label(Subscription s) {
        return s.planName == null ? s.planId.toString() : "\"" + s.planName + "\"";
    }
}
