package dev.cryptopay.transaction.messaging;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.inbox.Inbox;
import dev.cryptopay.transaction.domain.MerchantView;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps {@link MerchantView} in step with merchant-service's compacted {@code payments.merchants.v1} topic.
 * Idempotent twice over: a redelivered event id is skipped by the inbox, and a configuration older than the
 * stored one (lower {@code version}) never overwrites it.
 */
@ApplicationScoped
public class MerchantViewConsumer {

    public static final String CHANNEL = "merchants-in";
    static final String CONSUMER = "transaction.merchant-view";
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

    /** Applies one record value; true when it changed the view. Must run in a transaction. */
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
        view.externalMID = config.externalMID();
        view.status = config.status();
        view.version = config.version();
        view.config = config;
        view.updatedAt = OffsetDateTime.now();
        view.persist();
        return true;
    }
}
