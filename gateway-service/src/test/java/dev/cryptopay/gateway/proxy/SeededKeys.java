package dev.cryptopay.gateway.proxy;

import dev.cryptopay.gateway.auth.StoredKey;
import dev.cryptopay.support.security.KeyHash;
import io.quarkus.narayana.jta.QuarkusTransaction;
import java.time.OffsetDateTime;
import java.util.UUID;

/** Active admin API keys written straight into the gateway's key view (no merchant-service in these tests). */
final class SeededKeys {

    private SeededKeys() {
    }

    static void admin(UUID account, String... keys) {
        QuarkusTransaction.requiringNew().run(() -> {
            for (String key : keys) {
                StoredKey stored = new StoredKey();
                stored.keyHash = KeyHash.of(key);
                stored.keyId = UUID.randomUUID();
                stored.accountId = account;
                stored.keyType = "api";
                stored.role = "admin";
                stored.status = 1;
                stored.version = 1;
                stored.updatedAt = OffsetDateTime.now();
                stored.persist();
            }
        });
    }
}
