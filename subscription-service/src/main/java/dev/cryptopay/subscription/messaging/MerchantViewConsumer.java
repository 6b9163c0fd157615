package dev.cryptopay.subscription.messaging;

import dev.cryptopay.subscription.domain.MerchantView;
import dev.cryptopay.support.inbox.Inbox;
import dev.cryptopay.support.merchantview.MerchantViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/**
 * Keeps {@link MerchantView} in step with merchant-service's compacted {@code payments.merchants.v1} topic (as
 * transaction-service does): a redelivered event id is skipped by the inbox, and an older configuration (lower
 * {@code version}) never overwrites a newer one.
 */
@ApplicationScoped
public class MerchantViewConsumer {

    static final String CONSUMER = "subscription.merchant-view";

    private final Inbox inbox;

    public MerchantViewConsumer(Inbox inbox) {
        this.inbox = inbox;
    }

    /** Applies one record value; true when it changed the view. Must run in a transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean apply(String value) {
        return MerchantViews.consume(inbox, CONSUMER, value, MerchantView.class, MerchantView::new,
                (view, config) -> view.config = config);
    }
}
