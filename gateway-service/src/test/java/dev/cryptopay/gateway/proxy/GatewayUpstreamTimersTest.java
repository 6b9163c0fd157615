package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * gateway_upstream_requests_seconds times each forwarded request by the service that answered it and the class of its
 * answer: the service's own time (a stand-in that takes 300 ms is timed at 300 ms or more, though the gateway's work
 * around it is not in it), a 4xx as CLIENT_ERROR, and a service that is down as UNAVAILABLE.
 */
@QuarkusTest
class GatewayUpstreamTimersTest {

    static final UUID ACCOUNT = UUID.randomUUID();
    static final String ADMIN = "ak_upstream_" + ACCOUNT;
    static final long SLOW_MS = 300;
    static HttpServer slowWebhookService;
    static HttpServer refusingSubscriptionService;

    @Inject
    MeterRegistry registry;

    @BeforeAll
    static void start() throws Exception {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        SeededKeys.admin(ACCOUNT, ADMIN);
        slowWebhookService = StandInService.start(9084, Executors.newCachedThreadPool(), exchange -> {
            StandInService.pause(SLOW_MS);
        });
        refusingSubscriptionService = StandInService.start(9083, null, exchange -> {
        }, 404);
    }

    @AfterAll
    static void stop() {
        slowWebhookService.stop(0);
        refusingSubscriptionService.stop(0);
    }

    private Timer timer(String service, String outcome) {
        return registry.get(UpstreamTimers.NAME).tag("service", service).tag("outcome", outcome).timer();
    }

    @Test
    void aServiceAnswerIsTimedByServiceAndOutcome() {
        Timer webhookSuccess = timer("webhook", "SUCCESS");
        long before = webhookSuccess.count();
        double secondsBefore = webhookSuccess.totalTime(TimeUnit.SECONDS);

        given().header("X-Api-Key", ADMIN)
                .when().get("/accounts/" + ACCOUNT + "/webhooks")
                .then().statusCode(200);

        assertEquals(before + 1, webhookSuccess.count(), "one webhook-service answer timed as SUCCESS");
        double seconds = webhookSuccess.totalTime(TimeUnit.SECONDS) - secondsBefore;
        assertTrue(seconds >= SLOW_MS / 1000.0, "the service's 300 ms are in the time: " + seconds + " s");
        assertTrue(seconds < 5, "and not much more: " + seconds + " s");
    }

    @Test
    void aServiceRefusalIsAClientError() {
        Timer clientError = timer("subscription", "CLIENT_ERROR");
        Timer success = timer("subscription", "SUCCESS");
        long errorsBefore = clientError.count();
        long successesBefore = success.count();

        given().header("X-Api-Key", ADMIN)
                .when().get("/subscriptionplans")
                .then().statusCode(404);

        assertEquals(errorsBefore + 1, clientError.count(), "the service's 404 timed as CLIENT_ERROR");
        assertEquals(successesBefore, success.count(), "and not as SUCCESS");
    }

    @Test
    void aServiceThatIsDownIsUnavailable() {
        Timer unavailable = timer("reporting", "UNAVAILABLE");
        Timer serverError = timer("reporting", "SERVER_ERROR");
        long before = unavailable.count();
        long serverErrorsBefore = serverError.count();

        // No stand-in listens on reporting-service's test port (9085): the gateway answers 503 itself.
        given().header("X-Api-Key", ADMIN)
                .when().get("/accounts/" + ACCOUNT + "/reporting/summary")
                .then().statusCode(503);

        assertEquals(before + 1, unavailable.count(), "the refused connection timed as UNAVAILABLE");
        assertEquals(serverErrorsBefore, serverError.count(), "the gateway's own 503 is not the service's");
    }
}
