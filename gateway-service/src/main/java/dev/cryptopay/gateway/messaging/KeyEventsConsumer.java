package dev.cryptopay.gateway.messaging;

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

/**
 * Keeps the gateway's key store in step with merchant-service. Idempotent twice over: a redelivered event id
 * is skipped by the inbox, and a state older than the stored one (lower version) never overwrites it, so a
 * replayed "created" can never revive a revoked key.
 */
@ApplicationScoped
public class KeyEventsConsumer {

    public static final String CHANNEL = "keys-in";
    static final String CONSUMER = "gateway.key-store";

    private final Inbox inbox;
    private final Directory directory;

    public KeyEventsConsumer(Inbox inbox, Directory directory) {
        this.inbox = inbox;
        this.directory = directory;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    @Transactional
    public void onKeyEvent(String value) {
        inbox.accept(CONSUMER, value, EventTypes.KEY_UPDATED, KeyState.class).ifPresent(this::apply);
    }

    private void apply(KeyState state) {
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
