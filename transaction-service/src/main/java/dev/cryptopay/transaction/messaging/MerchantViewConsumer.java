package dev.cryptopay.transaction.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.CloudEvent;
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
    private final ObjectMapper mapper;

    public MerchantViewConsumer(Inbox inbox, ObjectMapper mapper) {
        this.inbox = inbox;
        this.mapper = mapper;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    @Transactional
    public void onMerchantEvent(String value) {
        CloudEvent event;
        try {
            event = CloudEvent.parse(value);
        } catch (IllegalArgumentException e) {
            LOG.warnf("skipping a record on the merchants topic that is not a CloudEvent: %s", e.getMessage());
            return;
        }
        apply(event);
    }

    /** Applies one event; true when it changed the view. Must run in a transaction. */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean apply(CloudEvent event) {
        if (!EventTypes.MERCHANT_UPDATED.equals(event.type())) {
            return false;
        }
        MerchantConfiguration config;
        try {
            config = mapper.treeToValue(event.data(), MerchantConfiguration.class);
            UUID.fromString(config.merchantId());
            UUID.fromString(config.accountId());
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            LOG.warnf("skipping merchant event %s with unreadable data: %s", event.id(), e.getMessage());
            return false;
        }
        if (!inbox.firstDelivery(CONSUMER, event.id())) {
            LOG.debugf("event %s already applied", event.id());
            return false;
        }
        UUID merchantId = UUID.fromString(config.merchantId());
        MerchantView view = MerchantView.findById(merchantId);
        if (view != null && view.version >= config.version()) {
            return false;
        }
        if (view == null) {
            view = new MerchantView();
            view.merchantId = merchantId;
        }
        view.accountId = UUID.fromString(config.accountId());
        view.externalMID = config.externalMID();
        view.status = config.status();
        view.version = config.version();
        view.config = config;
        view.updatedAt = OffsetDateTime.now();
        view.persist();
        return true;
    }
}
