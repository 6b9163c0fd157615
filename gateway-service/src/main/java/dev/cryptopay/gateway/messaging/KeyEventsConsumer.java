package dev.cryptopay.gateway.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.auth.StoredKey;
import dev.cryptopay.gateway.auth.Directory;
import dev.cryptopay.support.inbox.Inbox;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps the gateway's key store in step with merchant-service. Idempotent twice over: a redelivered event id
 * is skipped by the inbox, and a state older than the stored one (lower version) never overwrites it, so a
 * replayed "created" can never revive a revoked key.
 */
@ApplicationScoped
public class KeyEventsConsumer {

    public static final String CHANNEL = "keys-in";
    static final String CONSUMER = "gateway.key-store";
    private static final Logger LOG = Logger.getLogger(KeyEventsConsumer.class);

    private final Inbox inbox;
    private final Directory directory;
    private final ObjectMapper mapper;

    public KeyEventsConsumer(Inbox inbox, ObjectMapper mapper, Directory directory) {
        this.inbox = inbox;
        this.directory = directory;
        this.mapper = mapper;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    @Transactional
    public void onKeyEvent(String value) {
        CloudEvent event;
        KeyState state;
        try {
            event = CloudEvent.parse(value);
            if (!EventTypes.KEY_UPDATED.equals(event.type())) {
                return;
            }
            state = mapper.treeToValue(event.data(), KeyState.class);
        } catch (IllegalArgumentException | JsonProcessingException e) {
            LOG.warnf("skipping a record on the keys topic that is not a key event: %s", e.getMessage());
            return;
        }
        if (!inbox.firstDelivery(CONSUMER, event.id())) {
            LOG.debugf("event %s already applied", event.id());
            return;
        }
        StoredKey key = StoredKey.findById(state.keyHash());
        if (key != null && key.version >= state.version()) {
            return;
        }
        if (key == null) {
            key = new StoredKey();
            key.keyHash = state.keyHash();
        }
        key.keyId = UUID.fromString(state.keyId());
        key.accountId = UUID.fromString(state.accountId());
        key.keyType = state.keyType();
        key.role = state.role();
        key.merchantUUID = state.merchantUUID() == null ? null : UUID.fromString(state.merchantUUID());
        key.status = state.status();
        key.version = state.version();
        key.updatedAt = OffsetDateTime.parse(state.updatedAt());
        key.persist();
        directory.evictKey(state.keyHash());
    }
}
