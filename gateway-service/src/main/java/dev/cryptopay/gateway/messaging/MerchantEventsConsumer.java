package dev.cryptopay.gateway.messaging;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.gateway.auth.StoredMerchant;
import dev.cryptopay.gateway.auth.Directory;
import dev.cryptopay.support.inbox.Inbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.UUID;

/** Keeps the gateway's merchant view (owner, externalMID, status) in step with merchant-service. */
@ApplicationScoped
public class MerchantEventsConsumer {

    static final String CONSUMER = "gateway.merchants";

    private final Inbox inbox;
    private final Directory directory;

    public MerchantEventsConsumer(Inbox inbox, Directory directory) {
        this.inbox = inbox;
        this.directory = directory;
    }

    @Transactional
    public void onMerchantEvent(String value) {
        inbox.accept(CONSUMER, value, EventTypes.MERCHANT_UPDATED, MerchantConfiguration.class).ifPresent(this::apply);
    }

    private void apply(MerchantConfiguration merchant) {
        if (StoredMerchant.save(UUID.fromString(merchant.merchantId()), UUID.fromString(merchant.accountId()),
                merchant.externalMID(), merchant.status(), merchant.version())) {
            directory.evictMerchants();
        }
    }
}
