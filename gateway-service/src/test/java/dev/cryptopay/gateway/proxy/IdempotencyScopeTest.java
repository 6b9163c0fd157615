package dev.cryptopay.gateway.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.cryptopay.gateway.auth.Identity;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The idempotency identity (docs/decisions.md §28): account, key and the merchant the request names. */
class IdempotencyScopeTest {

    private static final UUID ACCOUNT = UUID.randomUUID();
    private static final UUID SHOP = UUID.randomUUID();
    private static final UUID TILL = UUID.randomUUID();

    @Test
    void theScopeSeparatesKeysAndMerchantsOfOneAccount() {
        Identity shop = new Identity("key-1", "api", "admin", ACCOUNT, SHOP, "shop");
        assertEquals(GatewayRouter.idempotencyScope(shop),
                GatewayRouter.idempotencyScope(new Identity("key-1", "api", "admin", ACCOUNT, SHOP, "shop")));
        assertNotEquals(GatewayRouter.idempotencyScope(shop),
                GatewayRouter.idempotencyScope(new Identity("key-1", "api", "admin", ACCOUNT, TILL, "till")));
        assertNotEquals(GatewayRouter.idempotencyScope(shop),
                GatewayRouter.idempotencyScope(new Identity("key-2", "api", "admin", ACCOUNT, SHOP, "shop")));
        assertNotEquals(GatewayRouter.idempotencyScope(shop),
                GatewayRouter.idempotencyScope(new Identity("key-1", "api", "admin", UUID.randomUUID(), SHOP, "shop")));
        assertEquals(64, GatewayRouter.idempotencyScope(shop).length(), "fits idempotency_record.scope");
    }
}
