package dev.cryptopay.systemtests.subscriptions;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Two instances of subscription-service side by side on one database, as replicas run: 500 subscriptions become due
 * at once and both billing jobs (every second) race for them. Each is billed exactly once: one payment, one attempt,
 * one billing request. The subscriptions bill through an archived merchant, so transaction-service rejects the
 * requests at once instead of opening 500 transactions.
 */
class SubscriptionReplicasIT {

    private static final int SUBSCRIPTIONS = 500;
    private static final int REPLICA_PORT = 18086;
    private static final String REPLICA = "subscription-replica";

    @Test
    void twoInstancesBillFiveHundredDueSubscriptionsEachExactlyOnce() throws Exception {
        Suite suite = Suite.throughGateway();
        suite.startReplica("subscription", REPLICA, REPLICA_PORT);
        try {
            // the clock offset lives in each instance's memory: the replica starts where the suite's instance is
            SubscriptionClock.advance(REPLICA_PORT, SubscriptionClock.offset(Suite.port("subscription")));
            SandboxAccount account = SandboxAccount.create("Replicas Ltd");
            String merchant = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
            String plan = plan(account, merchant);
            given().header("X-Api-Key", account.apiKey()).when()
                    .delete("/accounts/" + account.accountId() + "/merchants/" + merchant).then().statusCode(204);

            try (Connection db = DriverManager.getConnection(Suite.jdbcUrl("subscription"), "payments", "payments")) {
                try (PreparedStatement insert = db.prepareStatement("insert into subscription (id, account_id, "
                        + "merchant_id, plan_id, plan_name, customer_email, wallet_address, asset, network, status, "
                        + "billing_interval, amount, currency, anchor_at, next_billing_at, created_at, updated_at) "
                        + "select gen_random_uuid(), ?::uuid, ?::uuid, ?::uuid, 'Load', 'c' || n || '@example.com', "
                        + "'0xpayer', 'USDC', 'polygon', 'CREATED', 'MONTHLY', 5, 'USD', now(), now(), now(), now() "
                        + "from generate_series(1, ?) n")) {
                    insert.setString(1, account.accountId());
                    insert.setString(2, merchant);
                    insert.setString(3, plan);
                    insert.setInt(4, SUBSCRIPTIONS);
                    assertEquals(SUBSCRIPTIONS, insert.executeUpdate());
                }
                Instant deadline = Instant.now().plusSeconds(60);
                while (count(db, "select count(*) from subscription_payment where account_id = ?::uuid",
                        account.accountId()) < SUBSCRIPTIONS) {
                    assertTrue(Instant.now().isBefore(deadline), "not all billed within 60 s");
                    Thread.sleep(250);
                }
                Thread.sleep(3000); // a few more passes of both instances: nothing may be billed twice
                assertEquals(SUBSCRIPTIONS, count(db, "select count(*) from subscription_payment "
                        + "where account_id = ?::uuid", account.accountId()), "payments");
                assertEquals(SUBSCRIPTIONS, count(db, "select count(distinct subscription_id) from subscription_payment "
                        + "where account_id = ?::uuid", account.accountId()), "subscriptions billed");
                assertEquals(SUBSCRIPTIONS, count(db, "select count(*) from payment_attempt a join subscription_payment "
                        + "p on p.id = a.payment_id where p.account_id = ?::uuid", account.accountId()), "attempts");
                assertEquals(SUBSCRIPTIONS, count(db, "select count(*) from outbox_event where topic = "
                        + "'internal.billing.v1' and message_key in (select a.id::text from payment_attempt a join "
                        + "subscription_payment p on p.id = a.payment_id where p.account_id = ?::uuid)",
                        account.accountId()), "billing requests");
            }
            System.out.printf("[replicas] billing passes logged by the two instances:%n%s%n",
                    billingLines());
        } finally {
            suite.stopService(REPLICA);
        }
    }

    private static String plan(SandboxAccount account, String merchant) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            Response response = given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                    .body("{\"accountId\":\"" + account.accountId() + "\",\"merchantId\":\"" + merchant
                            + "\",\"amount\":\"5\",\"billingInterval\":\"MONTHLY\"}")
                    .when().post("/subscriptionplans");
            if (response.statusCode() == 201) {
                return response.jsonPath().getString("id");
            }
            assertTrue(Instant.now().isBefore(deadline), "no plan within 30 s: " + response.asString());
            Thread.sleep(200);
        }
    }

    private static long count(Connection db, String sql, String arg) throws SQLException {
        try (PreparedStatement query = db.prepareStatement(sql)) {
            query.setString(1, arg);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static Path log(String name) {
        return Suite.get().log(name);
    }

    /** The billing-pass lines both instances logged (for the record; which one bills what is up to the race). */
    private static String billingLines() throws java.io.IOException {
        StringBuilder out = new StringBuilder();
        for (String name : new String[] { "subscription", REPLICA }) {
            Files.readAllLines(log(name)).stream().filter(l -> l.contains("billing pass:"))
                    .forEach(l -> out.append(name).append(": ").append(l).append('\n'));
        }
        return out.toString();
    }
}
