package dev.cryptopay.webhook.delivery;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.TestTokens;
import dev.cryptopay.webhook.delivery.ProductionUrlTest.Production;
import dev.cryptopay.webhook.service.SigningSecrets;
import dev.cryptopay.webhook.testing.Api;
import dev.cryptopay.webhook.testing.Await;
import dev.cryptopay.webhook.testing.Events;
import dev.cryptopay.webhook.testing.Receiver;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** In production, webhook URLs may not lead into the internal network: when saved, and again at every attempt. */
@QuarkusTest
@TestProfile(Production.class)
class ProductionUrlTest {

    public static class Production implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // No allow list (the test profile's opens loopback for the other tests), and a non-development
            // encryption key, which production requires.
            return Map.of("cryptopay.environment", "production", "cryptopay.webhooks.allowed-targets", "",
                    "cryptopay.webhooks.secrets.encryption-key", "cHJvZHVjdGlvbi10ZXN0LWtleS1ub3QtZm9yLWRldiE=");
        }
    }

    @Inject
    EntityManager em;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @ParameterizedTest
    @ValueSource(strings = { "http://127.0.0.1:8080/hook", "http://localhost/hook", "https://[::1]/hook",
            "http://10.0.0.7/hook", "http://192.168.1.20/x", "http://169.254.169.254/latest/meta-data",
            "http://0.0.0.0:9/x" })
    void internalAddressesAreRefusedWhenSaved(String url) {
        UUID account = UUID.randomUUID();
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"name\":\"n\",\"url\":\"" + url + "\",\"events\":[\"*\"]}")
                .when().post("/accounts/" + account + "/webhooks")
                .then().statusCode(400)
                .body("code", equalTo("validation_failed"))
                .body("errors[0].field", equalTo("url"))
                .body("errors[0].message", containsString("loopback, private or link-local"));
    }

    @Test
    void anUpdateToAnInternalAddressIsRefusedToo() {
        UUID account = UUID.randomUUID();
        String id = Api.createWebhook(account, "public", "https://93.184.216.34/hook", java.util.List.of("*"))
                .getString("uuid");
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"url\":\"http://127.0.0.1/hook\"}")
                .when().put("/accounts/" + account + "/webhooks/" + id)
                .then().statusCode(400).body("errors[0].field", equalTo("url"));
    }

    @Test
    void anAddressThatTurnedInternalAfterSavingIsNotContacted() throws Exception {
        UUID account = UUID.randomUUID();
        try (Receiver receiver = Receiver.answering(200); Events events = new Events()) {
            // As if the host had resolved to a public address when saved and to loopback now (DNS rebinding):
            // the row is written directly, since the API would refuse this URL.
            UUID hook = UUID.randomUUID();
            QuarkusTransaction.requiringNew().run(() -> em.createNativeQuery("insert into webhook (id, account_id, "
                    + "name, url, status, events, signing_key, created_at, updated_at) values (?1, ?2, 'rebound', ?3, 1, "
                    + "array['*'], ?4, now(), now())")
                    .setParameter(1, hook).setParameter(2, account).setParameter(3, receiver.url())
                    .setParameter(4, SigningSecrets.newSecret()).executeUpdate());
            events.transaction(account, "transaction.success");
            Await.until(Duration.ofSeconds(30),
                    () -> Api.deliveries(account, hook.toString()).getInt("metadata.totalCount") >= 1,
                    () -> "the refused attempt is logged");
            JsonPath log = Api.deliveries(account, hook.toString());
            assertNull(log.get("deliveries[0].httpStatus"));
            assertTrue(log.getString("deliveries[0].error").contains("loopback, private or link-local"),
                    log.getString("deliveries[0].error"));
            assertEquals(0, receiver.requests().size(), "nothing reached the internal address");
            Api.setStatus(account, hook.toString(), -1);
        }
    }
}
