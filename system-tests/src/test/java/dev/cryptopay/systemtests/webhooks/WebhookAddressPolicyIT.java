package dev.cryptopay.systemtests.webhooks;

import static dev.cryptopay.systemtests.webhooks.WebhookFixtures.awaitTrue;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Security review, sandbox webhook addresses (docs/decisions.md §41), through the gateway of the suite, which runs
 * as the sandbox: link-local, private and tunnelled addresses are refused as in production, when saved and at every
 * attempt. Loopback works only because the suite allow-lists it (CRYPTOPAY_WEBHOOKS_ALLOWED_TARGETS in Suite).
 */
class WebhookAddressPolicyIT {

    private static Suite suite;
    private static Account account;
    private static KafkaProducer<String, String> producer;

    @BeforeAll
    static void startSuite() {
        suite = Suite.throughGateway();
        account = WebhookFixtures.newAccount(suite, "Address Policy Shop");
        producer = WebhookFixtures.producer();
    }

    @AfterAll
    static void closeProducer() {
        producer.close();
    }

    @ParameterizedTest
    @ValueSource(strings = { "http://169.254.169.254/latest/meta-data/", "http://10.0.0.7/hook",
            "http://192.168.1.20/hook", "http://172.16.5.4:8080/x", "http://100.64.0.1/x", "http://[fe80::1]/x",
            "http://[fd00::1]/x", "http://[2002:a9fe:a9fe::1]/x", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x",
            "http://[64:ff9b:1::a9fe:a9fe]/x", "http://[::ffff:169.254.169.254]/x", "http://0.0.0.0/x" })
    void theSandboxRefusesInternalAndTunnelledAddresses(String url) {
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"name\":\"probe\",\"url\":\"" + url + "\",\"events\":[\"*\"]}")
                .when().post("/accounts/" + account.id() + "/webhooks")
                .then().statusCode(400)
                .body("code", equalTo("validation_failed"))
                .body("errors[0].field", equalTo("url"))
                .body("errors[0].message", containsString("loopback, private or link-local"));
    }

    @Test
    void aChangeToAnInternalAddressIsRefusedAndTheAllowListedLoopbackWorks() throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.answering(200)) {
            String id = WebhookFixtures.createWebhook(account, "local", receiver.url(), List.of("*")).getString("uuid");
            given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                    .body("{\"url\":\"http://169.254.169.254/latest/meta-data/\"}")
                    .when().put("/accounts/" + account.id() + "/webhooks/" + id)
                    .then().statusCode(400).body("errors[0].field", equalTo("url"));
            WebhookFixtures.setStatus(account, id, -1);
        }
    }

    @Test
    void anInternalAddressThatSlippedIntoTheDatabaseIsNeverContacted() throws Exception {
        Account own = WebhookFixtures.newAccount(suite, "Rebinding Shop");
        // As if the name had resolved to a public address when saved and to a private one now (DNS rebinding):
        // the row is written behind the API, which refuses this URL.
        UUID hook = UUID.randomUUID();
        try (Connection db = DriverManager.getConnection(Suite.jdbcUrl("webhook"), "payments", "payments");
                PreparedStatement st = db.prepareStatement("insert into webhook (id, account_id, name, url, status, "
                        + "events, signing_key, created_at, updated_at) values (?::uuid, ?::uuid, 'rebound', "
                        + "'http://10.0.0.7/hook', 1, array['*'], ?, now(), now())")) {
            st.setString(1, hook.toString());
            st.setString(2, own.id());
            st.setString(3, "wk_" + java.util.Base64.getEncoder().encodeToString(new byte[32]));
            st.executeUpdate();
        }
        String transaction = UUID.randomUUID().toString();
        WebhookFixtures.publish(producer, transaction, WebhookFixtures.transactionEvent(UUID.randomUUID().toString(),
                "transaction.success", transaction, own.id()));
        awaitTrue(Duration.ofSeconds(60), () -> WebhookFixtures.deliveries(own, hook.toString())
                .getInt("metadata.totalCount") >= 1, "the refused attempt is logged");
        JsonPath log = WebhookFixtures.deliveries(own, hook.toString());
        assertNull(log.get("deliveries[0].httpStatus"), "no answer: nothing was contacted");
        assertTrue(log.getString("deliveries[0].error").contains("loopback, private or link-local"),
                log.getString("deliveries[0].error"));
        WebhookFixtures.setStatus(own, hook.toString(), -1);
    }
}
