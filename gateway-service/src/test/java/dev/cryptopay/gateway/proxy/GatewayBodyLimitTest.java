package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Body limits: a JSON body over 1 MiB is refused with 413, whether its length is declared or not. */
@QuarkusTest
class GatewayBodyLimitTest {

    static final UUID ACCOUNT = UUID.randomUUID();

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @BeforeAll
    static void seed() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        SeededKeys.admin(ACCOUNT, "ak_body_" + ACCOUNT);
    }

    @Test
    void aJsonBodyOverOneMibIsRefusedWith413() throws Exception {
        String key = "ak_body_" + ACCOUNT;
        byte[] big = new byte[1024 * 1024 + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        given().header("X-Api-Key", key).contentType("application/json").body(big)
                .post("/accounts/" + ACCOUNT + "/keys")
                .then().statusCode(413).contentType("application/problem+json")
                .body("code", equalTo("payload_too_large"));

        // The same without Content-Length (chunked): counted while reading.
        HttpURLConnection connection = (HttpURLConnection) URI
                .create("http://localhost:" + port + "/accounts/" + ACCOUNT + "/keys").toURL().openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setChunkedStreamingMode(64 * 1024);
        connection.setRequestProperty("Content-Type", "application/json");
        connection.setRequestProperty("X-Api-Key", key);
        try (OutputStream out = connection.getOutputStream()) {
            for (int i = 0; i < 24; i++) {
                out.write(new byte[64 * 1024]);
            }
        } catch (java.io.IOException closedEarly) {
            // the gateway may close the connection as soon as it has answered
        }
        assertEquals(413, connection.getResponseCode());
    }
}
