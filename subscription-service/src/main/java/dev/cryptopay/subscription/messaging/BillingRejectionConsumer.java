package dev.cryptopay.subscription.messaging;

import dev.cryptopay.events.BillingRejection;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.subscription.billing.Outcomes;
import dev.cryptopay.support.inbox.Inbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.UUID;

/**
 * {@code billing.transaction_rejected} on internal.billing.v1: transaction-service will never open the transaction of
 * an attempt (merchant not enabled, asset not accepted, no rate, ...). The attempt fails with that code and detail
 * and counts as a dunning step. This service's own requests on the same topic are skipped by type.
 */
@ApplicationScoped
public class BillingRejectionConsumer {

    static final String CONSUMER = "subscription.billing-rejections";

    private final Inbox inbox;
    private final Outcomes outcomes;

    public BillingRejectionConsumer(Inbox inbox, Outcomes outcomes) {
        this.inbox = inbox;
        this.outcomes = outcomes;
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public boolean apply(String value) {
        return inbox.accept(CONSUMER, value, EventTypes.BILLING_TRANSACTION_REJECTED, BillingRejection.class)
                .map(this::apply)
                .orElse(false);
    }

    private boolean apply(BillingRejection rejection) {
        UUID attemptId;
        try {
            attemptId = UUID.fromString(rejection.transactionId());
        } catch (IllegalArgumentException | NullPointerException e) {
            return false;
        }
        return outcomes.lock(attemptId).filter(l -> l.attempt().result.open()).map(l -> {
            outcomes.failed(l, "rejected: " + rejection.code()
                    + (rejection.detail() == null ? "" : ": " + rejection.detail()), null);
            return true;
        }).orElse(false);
    }
}
