package dev.cryptopay.subscription.messaging;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.subscription.domain.MerchantView;
import dev.cryptopay.support.inbox.Inbox;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps {@link MerchantView} in step with merchant-service's compacted {@code payments.merchants.v1} topic (as
 * transaction-service does): a redelivered event id is skipped by the inbox, and an older configuration (lower
 * {@code version}) never overwrites a newer one.
 */
@ApplicationScoped
public class MerchantViewConsumer {

    public static final String CHANNEL = "merchants-in";
    static final String CONSUMER = "subscription.merchant-view";
    private static final Logger LOG = Logger.getLogger(MerchantViewConsumer.class);

    private final Inbox inbox;

    public MerchantViewConsumer(Inbox inbox) {
        this.inbox = inbox;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    @Transactional
    public void onMerchantEvent(String value) {
        apply(value);
    }

    /** Applies one record value; true when it changed the view. */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean apply(String value) {
        return inbox.accept(CONSUMER, value, EventTypes.MERCHANT_UPDATED, MerchantConfiguration.class)
                .map(this::apply)
                .orElse(false);
    }

    private boolean apply(MerchantConfiguration config) {
        UUID merchantId;
        UUID accountId;
        try {
            merchantId = UUID.fromString(config.merchantId());
            accountId = UUID.fromString(config.accountId());
        } catch (IllegalArgumentException | NullPointerException e) {
            LOG.warnf("skipping a merchant event without valid merchant and account ids: %s", e.getMessage());
            return false;
        }
        MerchantView view = MerchantView.findById(merchantId);
        if (view != null && view.version >= config.version()) {
            return false;
        }
        if (view == null) {
            view = new MerchantView();
            view.merchantId = merchantId;
        }
        view.accountId = accountId;
        view.status = config.status();
        view.version = config.version();
        view.config = config;
        view.updatedAt = OffsetDateTime.now();
        view.persist();
        return true;
    }
}
