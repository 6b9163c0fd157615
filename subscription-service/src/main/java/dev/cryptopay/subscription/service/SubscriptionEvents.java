package dev.cryptopay.subscription.service;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.Topics;
import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionPayment;
import dev.cryptopay.subscription.rest.Views;
import dev.cryptopay.support.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/**
 * Events on {@code payments.subscriptions.v1} through the outbox, keyed by the subscription id: the subscription.*
 * types carry the Subscription and {@code subscription_payment.paid} the SubscriptionPayment, each exactly as the API
 * answers it after the change.
 */
@ApplicationScoped
public class SubscriptionEvents {

    private final Outbox outbox;
    private final EntityManager em;

    public SubscriptionEvents(Outbox outbox, EntityManager em) {
        this.outbox = outbox;
        this.em = em;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void subscription(String type, Subscription subscription) {
        outbox.append(Topics.SUBSCRIPTIONS, type, subscription.id.toString(), Views.subscription(subscription));
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void paymentPaid(SubscriptionPayment payment) {
        em.flush();
        outbox.append(Topics.SUBSCRIPTIONS, EventTypes.SUBSCRIPTION_PAYMENT_PAID, payment.subscriptionId.toString(),
                Views.payment(payment));
    }
}
