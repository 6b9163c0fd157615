package dev.cryptopay.systemtests.payments;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two transaction-service instances watching one chain, as replicas run: both watchers tick every second over the
 * same networks, and each network's cursor row is taken `skip locked` for a pass, so one reads a network at a
 * time. 30 transactions paid on the sandbox chain (shared through the database) are each detected once: one
 * transfer recorded per payment and one transaction.success event each, all paid.
 */
class WatcherReplicasIT {

    private static final int PAYMENTS = 30;
    private static final String REPLICA = "transaction-replica";
    private static final int REPLICA_PORT = 18095;

    @Test
    void twoWatchersDetectEveryPaymentOnce() throws Exception {
        Suite suite = Suite.throughGateway();
        suite.startReplica("transaction", REPLICA, REPLICA_PORT);
        try {
            SandboxAccount account = SandboxAccount.create("Watcher Replicas Ltd");
            String merchant = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < PAYMENTS; i++) {
                JsonPath created = create(account, merchant);
                ids.add(UUID.fromString(created.getString("transactionId")));
                given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                        .body("{\"network\":\"base\",\"asset\":\"USDC\",\"toAddress\":\"" + created.getString("address")
                                + "\",\"amount\":\"" + created.getString("assetAmount") + "\",\"confirmations\":3}")
                        .when().post("/sandbox/chain/transfers").then().statusCode(201);
            }
            Instant deadline = Instant.now().plusSeconds(90);
            for (UUID id : ids) {
                while (given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                        .get("/transaction/" + id).then().statusCode(200).extract().jsonPath().getInt("status") != 1) {
                    assertTrue(Instant.now().isBefore(deadline), "transaction " + id + " not paid within 90 s");
                    Thread.sleep(200);
                }
            }
            Thread.sleep(3000); // a few more passes of both watchers: nothing may be counted again
            try (Connection db = DriverManager.getConnection(Suite.jdbcUrl("transaction"), "payments", "payments")) {
                Array idArray = db.createArrayOf("uuid", ids.toArray());
                assertEquals(PAYMENTS, count(db, "select count(*) from payment_transfer where transaction_id = any(?)",
                        idArray), "transfers recorded");
                assertEquals(PAYMENTS, count(db, "select count(distinct transaction_id) from payment_transfer "
                        + "where transaction_id = any(?)", idArray), "transactions with a transfer");
                assertEquals(PAYMENTS, count(db, "select count(*) from outbox_event where topic = "
                        + "'payments.transactions.v1' and event_type = 'transaction.success' "
                        + "and message_key = any(?)", db.createArrayOf("text", ids.stream().map(UUID::toString)
                        .toArray())), "transaction.success events");
            }
        } finally {
            suite.stopService(REPLICA);
        }
    }

    private static JsonPath create(SandboxAccount account, String merchant) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            Response response = given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                    .contentType(ContentType.JSON)
                    .body("{\"amount\":25,\"amountCurrency\":\"USD\",\"asset\":\"USDC\",\"network\":\"base\"}")
                    .when().post("/transaction");
            if (response.statusCode() == 201) {
                return response.jsonPath();
            }
            assertTrue(Instant.now().isBefore(deadline), "no transaction within 30 s: " + response.asString());
            Thread.sleep(200);
        }
    }

    private static long count(Connection db, String sql, Array ids) throws Exception {
        try (PreparedStatement query = db.prepareStatement(sql)) {
            query.setArray(1, ids);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
