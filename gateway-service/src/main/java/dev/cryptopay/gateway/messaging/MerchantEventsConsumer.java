package dev.cryptopay.gateway.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.gateway.auth.StoredMerchant;
import dev.cryptopay.gateway.auth.Directory;
import dev.cryptopay.support.inbox.Inbox;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/** Keeps the gateway's merchant view (owner, externalMID, status) in step with merchant-service. */
@ApplicationScoped
public class MerchantEventsConsumer {

    public static final String CHANNEL = "merchants-in";
    static final String CONSUMER = "gateway.merchants";
    private static final Logger LOG = Logger.getLogger(MerchantEventsConsumer.class);

    private final Inbox inbox;
    private final Directory directory;
    private final ObjectMapper mapper;

    public MerchantEventsConsumer(Inbox inbox, ObjectMapper mapper, Directory directory) {
        this.inbox = inbox;
        this.directory = directory;
        this.mapper = mapper;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    @Transactional
    public void onMerchantEvent(String value) {
        CloudEvent event;
        MerchantConfiguration merchant;
        try {
            event = CloudEvent.parse(value);
            if (!EventTypes.MERCHANT_UPDATED.equals(event.type())) {
                return;
            }
            merchant = mapper.treeToValue(event.data(), MerchantConfiguration.class);
        } catch (IllegalArgumentException | JsonProcessingException e) {
            LOG.warnf("skipping a record on the merchants topic that is not a merchant event: %s", e.getMessage());
            return;
        }
        if (!inbox.firstDelivery(CONSUMER, event.id())) {
            return;
        }
        UUID id = UUID.fromString(merchant.merchantId());
        StoredMerchant stored = StoredMerchant.findById(id);
        if (stored != null && stored.version >= merchant.version()) {
            return;
        }
        if (stored == null) {
            stored = new StoredMerchant();
            stored.merchantId = id;
        }
        stored.accountId = UUID.fromString(merchant.accountId());
        stored.externalMID = merchant.externalMID();
        stored.status = merchant.status();
        stored.version = merchant.version();
        stored.updatedAt = OffsetDateTime.now();
        stored.persist();
        directory.evictMerchants();
    }
}
