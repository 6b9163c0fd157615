package dev.cryptopay.transaction.messaging;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.inbox.Inbox;
import dev.cryptopay.support.merchantview.MerchantViews;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.service.MerchantAccess;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/**
 * Keeps {@link MerchantView} in step with merchant-service's compacted {@code payments.merchants.v1} topic.
 * Idempotent twice over: a redelivered event id is skipped by the inbox, and a configuration older than the
 * stored one (lower {@code version}) never overwrites it ({@link MerchantAccess#store}, which a creation that read a
 * merchant from merchant-service uses too).
 */
@ApplicationScoped
public class MerchantViewConsumer {

    static final String CONSUMER = "transaction.merchant-view";

    private final Inbox inbox;
    private final MerchantAccess access;

    public MerchantViewConsumer(Inbox inbox, MerchantAccess access) {
        this.inbox = inbox;
        this.access = access;
    }

    @Transactional
    public void onMerchantEvent(String value) {
        apply(value);
    }

    /** Applies one record value; true when it changed the view. Must run in a transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean apply(String value) {
        return inbox.accept(CONSUMER, value, EventTypes.MERCHANT_UPDATED, MerchantConfiguration.class)
                .filter(MerchantViews::identified)
                .map(access::store)
                .orElse(false);
    }
}
