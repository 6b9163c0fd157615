package dev.cryptopay.gateway.messaging;

import dev.cryptopay.events.EventTypes;
import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.auth.StoredKey;
import dev.cryptopay.gateway.auth.Directory;
import dev.cryptopay.gateway.auth.UnknownKeys;
import dev.cryptopay.support.inbox.Inbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/**
 * Keeps the gateway's key store in step with merchant-service. Idempotent twice over: a redelivered event id
 * is skipped by the inbox, and a state older than the stored one (lower version) never overwrites it, so a
 * replayed "created" can never revive a revoked key.
 */
@ApplicationScoped
public class KeyEventsConsumer {

    static final String CONSUMER = "gateway.key-store";

    private final Inbox inbox;
    private final Directory directory;
    private final UnknownKeys unknownKeys;

    public KeyEventsConsumer(Inbox inbox, Directory directory, UnknownKeys unknownKeys) {
        this.inbox = inbox;
        this.directory = directory;
        this.unknownKeys = unknownKeys;
    }

    @Transactional
    public void onKeyEvent(String value) {
        inbox.accept(CONSUMER, value, EventTypes.KEY_UPDATED, KeyState.class).ifPresent(this::apply);
    }

    private void apply(KeyState state) {
        // A key refused as unknown a moment ago works as soon as its event arrives (docs/decisions.md §32).
        unknownKeys.forget(state.keyHash());
        if (StoredKey.save(state)) {
            directory.evictKey(state.keyHash());
        }
    }
}
