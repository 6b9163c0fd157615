package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.Topics;
import dev.cryptopay.merchant.service.MerchantService;
import dev.cryptopay.support.testing.LockWaits;
import dev.cryptopay.support.testing.TestTokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A merchant's event carries its account's settings and the version account + merchant. An account change re-publishes
 * every merchant of the account while it holds the account's row; a merchant change that runs meanwhile must wait for
 * it and publish both changes under a higher version. Otherwise each publishes its own half under the same version and
 * consumers, which keep the first of two equal versions, lose one of them for good (docs/decisions.md §111). And two
 * creations with one externalMID at once: the second is 409 like any taken externalMID. And two revocations of one key
 * at once: the second finds the key revoked, so there is one revocation event, not two of the same version.
 */
@QuarkusTest
class ConcurrentMerchantChangesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AgroalDataSource dataSource;

    private final ExecutorService client = Executors.newFixedThreadPool(2);

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @AfterEach
    void stopClient() {
        client.shutdownNow();
    }

    @Test
    void aMerchantChangeDuringAnAccountChangePublishesBothUnderAHigherVersion() throws Exception {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);

        try (Connection accountChange = dataSource.getConnection()) {
            accountChange.setAutoCommit(false);
            // An account change in progress, as AccountConfigService.update makes it: the row taken for update and
            // its version raised (the re-published merchants are left out: this test reads the merchant's own event).
            try (PreparedStatement st = accountChange.prepareStatement(
                    "update account set version = version + 1, updated_at = now() where id = ?")) {
                st.setObject(1, account);
                assertEquals(1, st.executeUpdate());
            }
            Future<Integer> update = client.submit(() -> given().auth().oauth2(TestTokens.admin(account))
                    .contentType(ContentType.JSON)
                    .body(TestAccounts.MINIMAL_MERCHANT.replace("Corner Shop", "Corner Shop Two"))
                    .when().put("/accounts/" + account + "/merchants/" + merchant)
                    .then().extract().statusCode());
            LockWaits.awaitBlocked(dataSource, update);
            accountChange.commit();
            assertEquals(200, update.get(10, TimeUnit.SECONDS));
        }

        long current = currentVersion(account, UUID.fromString(merchant));
        JsonNode last = lastEvent(merchant);
        assertEquals(current, last.path("version").asLong(),
                "the merchant's last event carries the account's change as well as its own");
        assertEquals("Corner Shop Two", last.path("name").asText());
    }

    @Test
    void aSecondCreationWithTheSameExternalMidAtOnceIs409() throws Exception {
        UUID account = TestAccounts.newAccount();
        String mid = "till-" + UUID.randomUUID().toString().substring(0, 8);
        String body = TestAccounts.MINIMAL_MERCHANT.replace("{", "{\"externalMID\":\"" + mid + "\",");

        try (Connection first = dataSource.getConnection()) {
            // A first creation in progress, as MerchantService.create makes it: the externalMID's lock (taken as
            // TransactionLocks takes it), its row.
            first.setAutoCommit(false);
            try (PreparedStatement st = first.prepareStatement(
                    "select pg_advisory_xact_lock(hashtextextended(?, 0))")) {
                st.setString(1, MerchantService.externalMidLock(account, mid));
                st.executeQuery().close();
            }
            try (PreparedStatement st = first.prepareStatement("insert into merchant (id, account_id, name, address1, "
                    + "city, region, country, status, descriptor, external_mid) "
                    + "values (?, ?, 'First', '1 Main St', 'Berlin', 'BE', 'DE', 1, 'First', ?)")) {
                st.setObject(1, UUID.randomUUID());
                st.setObject(2, account);
                st.setString(3, mid);
                st.executeUpdate();
            }
            Future<Integer> second = client.submit(() -> given().auth().oauth2(TestTokens.admin(account))
                    .contentType(ContentType.JSON).body(body)
                    .when().post("/accounts/" + account + "/merchants").then().extract().statusCode());
            LockWaits.awaitBlocked(dataSource, second);
            first.commit();
            assertEquals(409, second.get(10, TimeUnit.SECONDS), "external_mid_taken, not a failure at commit");
        }
    }

    @Test
    void twoRevocationsOfAKeyAtOncePublishOneRevocation() throws Exception {
        UUID account = TestAccounts.newAccount();
        String admin = TestTokens.admin(account);
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"keyType\":\"api\",\"name\":\"till\"}")
                .when().post("/accounts/" + account + "/keys").then().statusCode(201);
        String key = given().auth().oauth2(admin).when().get("/accounts/" + account + "/keys")
                .then().statusCode(200).extract().path("keys.api.find { it.name == 'till' }.UUID");

        try (Connection held = dataSource.getConnection()) {
            // Another change of the key's row in progress: both revocations reach the row while it is held.
            held.setAutoCommit(false);
            try (PreparedStatement st = held.prepareStatement(
                    "update account_key set updated_at = updated_at where id = ?")) {
                st.setObject(1, UUID.fromString(key));
                assertEquals(1, st.executeUpdate());
            }
            Future<Integer> first = client.submit(() -> revoke(admin, account, key));
            Future<Integer> second = client.submit(() -> revoke(admin, account, key));
            LockWaits.awaitBlocked(dataSource, 2, first, second);
            held.commit();
            assertEquals(204, first.get(10, TimeUnit.SECONDS));
            assertEquals(204, second.get(10, TimeUnit.SECONDS));
        }

        try (Connection c = dataSource.getConnection();
                PreparedStatement st = c.prepareStatement("select payload from outbox_event "
                        + "where topic = ? and message_key = ? order by seq")) {
            st.setString(1, Topics.KEYS);
            st.setString(2, key);
            List<Long> versions = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    versions.add(JSON.readTree(rs.getString(1)).path("data").path("version").asLong());
                }
            }
            assertEquals(List.of(1L, 2L), versions, "the creation's event and one revocation's");
        }
    }

    private static int revoke(String admin, UUID account, String key) {
        return given().auth().oauth2(admin).when().delete("/accounts/" + account + "/keys/" + key)
                .then().extract().statusCode();
    }

    private long currentVersion(UUID account, UUID merchant) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement st = c.prepareStatement("select a.version + m.version from account a, merchant m "
                        + "where a.id = ? and m.id = ?")) {
            st.setObject(1, account);
            st.setObject(2, merchant);
            try (ResultSet rs = st.executeQuery()) {
                assertTrue(rs.next());
                return rs.getLong(1);
            }
        }
    }

    private JsonNode lastEvent(String merchant) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement st = c.prepareStatement("select payload from outbox_event "
                        + "where topic = ? and message_key = ? order by seq desc limit 1")) {
            st.setString(1, Topics.MERCHANTS);
            st.setString(2, merchant);
            try (ResultSet rs = st.executeQuery()) {
                assertTrue(rs.next(), "no event for the merchant");
                return JSON.readTree(rs.getString(1)).path("data"); // the CloudEvent's data
            }
        }
    }
}
