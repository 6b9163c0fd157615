package dev.cryptopay.gateway.proxy;

import dev.cryptopay.gateway.auth.StoredKey;
import dev.cryptopay.gateway.auth.StoredMerchant;
import dev.cryptopay.support.security.KeyHash;
import io.quarkus.narayana.jta.QuarkusTransaction;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * Active admin API keys and enabled merchants written straight into the gateway's key and merchant views (no
 * merchant-service in these tests).
 */
public final class SeededKeys {

    private SeededKeys() {
    }

    public static void admin(UUID account, String... keys) {
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

    /** An enabled merchant of {@code account} in the gateway's merchant view; call inside a transaction. */
    public static void merchant(UUID id, UUID account, String externalMID) {
        StoredMerchant merchant = new StoredMerchant();
        merchant.merchantId = id;
        merchant.accountId = account;
        merchant.externalMID = externalMID;
        merchant.status = 1;
        merchant.version = 1;
        merchant.updatedAt = OffsetDateTime.now();
        merchant.persist();
    }
}
