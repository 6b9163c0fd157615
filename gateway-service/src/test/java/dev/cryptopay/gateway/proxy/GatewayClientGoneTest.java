package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.support.testing.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that hangs up while the service works on its request is not a failing service: the gateway does not warn
 * "service failed" for it (under load every closed connection with a request in flight did). A service that is down
 * still is one: 503 and the warning.
 */
@QuarkusTest
class GatewayClientGoneTest {

    static final UUID ACCOUNT = UUID.randomUUID();
    static final String ADMIN = "ak_gone_" + ACCOUNT;
    static final CountDownLatch REACHED = new CountDownLatch(1);
    static HttpServer slowWebhookService;

    private CapturedLog warnings;

    @BeforeAll
    static void start() throws Exception {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        SeededKeys.admin(ACCOUNT, ADMIN);
        // Answers each request 1.5 s after it came in, on a thread of its own.
        slowWebhookService = StandInService.start(9084, Executors.newCachedThreadPool(), exchange -> {
            REACHED.countDown();
            StandInService.pause(1500);
        });
    }

    @AfterAll
    static void stop() {
        slowWebhookService.stop(0);
    }

    @BeforeEach
    void captureWarnings() {
        warnings = CapturedLog.of(GatewayRouter.class);
    }

    @AfterEach
    void stopCapturing() {
        warnings.close();
    }

    @Test
    void aClientThatHangsUpIsNotAServiceFailure() throws Exception {
        try (Socket client = new Socket("127.0.0.1", RestAssured.port)) {
            OutputStream out = client.getOutputStream();
            out.write(StandInService.rawGet("/accounts/" + ACCOUNT + "/webhooks", ADMIN));
            out.flush();
            if (!REACHED.await(10, TimeUnit.SECONDS)) {
                client.setSoTimeout(1000);
                byte[] answer = client.getInputStream().readNBytes(400);
                throw new AssertionError("the request did not reach the stand-in webhook-service; the gateway "
                        + "answered: " + new String(answer, StandardCharsets.US_ASCII));
            }
        } // the client hangs up while the service still works on the request
        Thread.sleep(2500); // the service answers after 1.5 s; the gateway has dealt with the hang-up by then

        assertEquals(List.of(), warnings.messages(Level.WARNING),
                "no warning for a client that went away");
    }

    @Test
    void aServiceThatIsDownStillIs() {
        // No stand-in listens on reporting-service's test port (9085).
        given().header("X-Api-Key", ADMIN)
                .when().get("/accounts/" + ACCOUNT + "/reporting/summary")
                .then().statusCode(503);

        assertTrue(warnings.messages(Level.WARNING).stream().anyMatch(message -> message.contains("service failed")),
                "the failing service is warned about: " + warnings.messages(Level.WARNING));
    }
}
