package dev.cryptopay.gateway.messaging;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.gateway.auth.StoredMerchant;
import dev.cryptopay.gateway.auth.Directory;
import dev.cryptopay.support.inbox.Inbox;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/** Keeps the gateway's merchant view (owner, externalMID, status) in step with merchant-service. */
@ApplicationScoped
public class MerchantEventsConsumer {

    public static final String CHANNEL = "merchants-in";
    static final String CONSUMER = "gateway.merchants";

    private final Inbox inbox;
    private final Directory directory;

    public MerchantEventsConsumer(Inbox inbox, Directory directory) {
        this.inbox = inbox;
        this.directory = directory;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
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
