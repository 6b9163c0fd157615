package dev.cryptopay.systemtests.contract;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * transaction-service's database ends every session of the service, as a restart or a failover does
 * (docs/decisions.md §131), while merchants create transactions through the gateway. A creation that meets a dead
 * connection is answered 503 {@code service_unavailable} with {@code Retry-After: 1} through the gateway, never 500,
 * and stores nothing; once the pools' connections were idle a second they are checked before use, and every creation
 * succeeds. The service logs no ERROR for it.
 */
class DatabaseRestartIT {

    private static final String BODY =
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"USDC\",\"network\":\"base\"}";

    private static Suite suite;
    private static String merchant;
    private static String publishable;

    @BeforeAll
    static void setUp() {
        suite = Suite.throughGateway();
        SandboxAccount account = SandboxAccount.create("Database Restart IT");
        merchant = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        publishable = account.newKey("publishable", null, merchant);
    }

    @Test
    void creationsThroughTheGatewayMeetingLostConnectionsAre503WithRetryAfterAndStoreNothing() throws Exception {
        Path log = suite.log("transaction");
        for (int i = 0; i < 3; i++) { // the service's pooled connections were all used just now
            create().then().statusCode(201);
        }
        long before = Files.size(log);
        int created = 3;
        assertTrue(endTransactionServiceSessions() >= 2, "transaction-service's pooled sessions were not ended");

        // At once: the connections were used within the second, so they are not checked, and a creation may meet one.
        int unavailable = 0;
        for (int i = 0; i < 8; i++) {
            Response answer = create();
            if (answer.statusCode() == 201) {
                created++;
                continue;
            }
            assertEquals(503, answer.statusCode(), answer.asString());
            assertEquals("application/problem+json", answer.contentType().split(";")[0], answer.asString());
            assertEquals("service_unavailable", answer.jsonPath().getString("code"), answer.asString());
            assertEquals("1", answer.getHeader("Retry-After"), answer.asString());
            unavailable++;
        }

        // A second later the pools check each connection before handing it out: every creation succeeds.
        Thread.sleep(1_300);
        for (int i = 0; i < 5; i++) {
            create().then().statusCode(201);
            created++;
        }
        System.out.printf("[contract] after the database ended transaction-service's sessions: %d creations answered "
                + "503 with Retry-After, the rest 201%n", unavailable);
        assertEquals(created, ServiceDatabases.count("transaction", "select count(*) from transaction where "
                + "merchant_id = ?", UUID.fromString(merchant)), "a creation answered 503 stored a transaction");
        List<String> errors = Suite.linesSince(log, before).stream().filter(l -> l.contains(" ERROR ")).toList();
        assertTrue(errors.isEmpty(), "transaction-service logged " + errors.size() + " ERROR lines, the first: "
                + errors.stream().limit(3).toList());
    }

    private static Response create() {
        return given().header("X-Publishable-Key", publishable).contentType(ContentType.JSON).body(BODY)
                .post("/transaction");
    }

    /** Ends every session of transaction-service's database but the one asking, as the server does at a restart. */
    private static long endTransactionServiceSessions() {
        return ServiceDatabases.count("transaction", "select count(*) filter (where pg_terminate_backend(pid)) from "
                + "pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
    }
}
