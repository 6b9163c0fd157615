package dev.cryptopay.systemtests.gateway;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The gateway's key view while its database refuses the view's writes, as during a database outage: a key revoked
 * then is still accepted until the revocation is stored, and refused once the database takes writes again, without a
 * restart; the gateway stays live meanwhile (docs/decisions.md §116). Until then the failed write failed the views'
 * channel: liveness down, and no key or merchant change reached the gateway until it was restarted. The refusal is a
 * trigger on the key view's table, dropped again at the end, so nothing else of the suite's databases is touched.
 */
class GatewayViewsOutageIT {

    private static final String REFUSAL = "the key view refuses writes (GatewayViewsOutageIT)";

    @Test
    void aKeyRevokedWhileTheViewCannotBeStoredIsRefusedOnceItCanAndTheGatewayStaysLive() throws Exception {
        Suite.throughGateway();
        SandboxAccount account = SandboxAccount.create("Views outage IT");
        String key = account.newKey("api", "admin", null);
        String keys = "/accounts/" + account.accountId() + "/keys";
        ServiceDatabases.awaitTrue(() -> given().header("X-Api-Key", key).get(keys).statusCode() == 200,
                "the new key works");
        String keyId = account.keyId(key);
        // Its "created" event stored too, so that the one write refused below is the revocation's.
        ServiceDatabases.awaitTrue(() -> ServiceDatabases.count("gateway",
                "select count(*) from gateway_key where key_id = ?::uuid", keyId) == 1,
                "the new key in the gateway's view");

        Path log = Suite.get().log("gateway");
        long logged = Files.size(log);
        try (AutoCloseable refusal = ServiceDatabases.refusingWrites("gateway", "gateway_key", REFUSAL)) {
            given().header("X-Api-Key", account.apiKey()).delete(keys + "/" + keyId)
                    .then().statusCode(204);
            ServiceDatabases.awaitTrue(
                    () -> Suite.linesSince(log, logged).stream().anyMatch(line -> line.contains(REFUSAL)),
                    "the gateway tried to store the revocation and was refused");
            assertEquals(200, Suite.liveness("gateway"), "the gateway is live while its view cannot be stored");
            assertEquals(200, given().header("X-Api-Key", key).get(keys).statusCode(),
                    "the revocation is not in the view yet: the key still works");
        }

        // The revocation is tried again (every 5 s at the longest) and stored now.
        ServiceDatabases.awaitTrue(() -> given().header("X-Api-Key", key).get(keys).statusCode() == 401,
                "the revoked key refused once the view takes writes again");
        assertEquals(200, Suite.liveness("gateway"), "live throughout");
    }
}
