package dev.cryptopay.gateway.proxy;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.support.security.IdentityClaims;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.Header;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.util.KeyUtils;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every client identity header stops at the gateway: a service receives only the gateway's signed identity token
 * (and never the client's Authorization, keys, X-MID or X-Account-Id), with the caller the gateway established.
 * Idempotency-Key goes on: transaction-service keeps it with its creations (docs/decisions.md §112). The JDK's HTTP
 * server stands in for transaction-service and webhook-service on their test ports and records what arrives.
 */
@QuarkusTest
class GatewayHeaderStrippingTest {

    static final UUID ACCOUNT = UUID.randomUUID();
    static final UUID TILL = UUID.randomUUID();
    static final String ADMIN = "ak_strip_" + ACCOUNT;
    static final List<String> CLIENT_IDENTITY_HEADERS = List.of("X-Api-Key", "X-Publishable-Key", "X-MID",
            "X-Account-Id");

    record Received(String method, String path, Headers headers, String body) {
    }

    static final BlockingQueue<Received> RECEIVED = new LinkedBlockingQueue<>();
    static HttpServer transactionService;
    static HttpServer webhookService;

    @BeforeAll
    static void start() throws Exception {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        SeededKeys.admin(ACCOUNT, ADMIN);
        QuarkusTransaction.requiringNew().run(() -> SeededKeys.merchant(TILL, ACCOUNT, "strip-till"));
        transactionService = standIn(9082);
        webhookService = standIn(9084);
    }

    @AfterAll
    static void stop() {
        transactionService.stop(0);
        webhookService.stop(0);
    }

    private static HttpServer standIn(int port) throws Exception {
        return StandInService.start(port, null, exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            // Like every service (RequestIdFilter): the request id comes back on the answer.
            String requestId = exchange.getRequestHeaders().getFirst("X-Request-Id");
            if (requestId != null) {
                exchange.getResponseHeaders().add("X-Request-Id", requestId);
            }
            RECEIVED.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders(), body));
        });
    }

    @Test
    void aServiceSeesTheGatewaysTokenAndNoneOfTheClientsCredentials() throws Exception {
        RECEIVED.clear();
        List<Header> answeredIds = given().header("X-Api-Key", ADMIN).header("X-MID", "strip-till")
                .header("X-Publishable-Key", "pk_not_for_you").header("X-Account-Id", UUID.randomUUID().toString())
                .header("Authorization", "Bearer forged.by.client").header("X-Request-Id", "strip-1")
                .contentType("application/json").body("{\"reason\":\"test\"}")
                .when().patch("/transaction/t1/cancel")
                .then().statusCode(200)
                .extract().headers().getList("X-Request-Id");
        assertEquals(List.of("strip-1"), answeredIds.stream().map(Header::getValue).toList(),
                "one X-Request-Id on the answer: the gateway's, not also the service's echo");

        Received received = RECEIVED.poll(10, TimeUnit.SECONDS);
        assertNotNull(received, "the request reached the stand-in transaction-service");
        assertEquals("PATCH", received.method());
        assertEquals("/transaction/t1/cancel", received.path());
        assertEquals("{\"reason\":\"test\"}", received.body());
        assertEquals("strip-1", received.headers().getFirst("X-Request-Id"));
        CLIENT_IDENTITY_HEADERS.forEach(name -> assertFalse(received.headers().containsKey(name),
                name + " must not reach a service"));

        List<String> authorization = received.headers().get("Authorization");
        assertEquals(1, authorization.size(), "exactly one Authorization header: the gateway's");
        assertTrue(authorization.get(0).startsWith("Bearer "));
        JsonWebToken token = verify(authorization.get(0).substring("Bearer ".length()));
        assertEquals(ACCOUNT.toString(), token.getClaim(IdentityClaims.ACCOUNT));
        assertEquals(TILL.toString(), token.getClaim(IdentityClaims.MERCHANT));
        assertEquals(Set.of(IdentityClaims.ROLE_ADMIN), token.getGroups());
    }

    @Test
    void theIdempotencyKeyIsKeptByTheGatewayAndPassedOn() throws Exception {
        RECEIVED.clear();
        String key = "strip-" + UUID.randomUUID();
        List<Header> answeredIds = given().header("X-Api-Key", ADMIN)
                .header("Idempotency-Key", key)
                .contentType("application/json").body("{\"name\":\"hook\"}")
                .when().post("/accounts/" + ACCOUNT + "/webhooks")
                .then().statusCode(200)
                .extract().headers().getList("X-Request-Id");
        assertEquals(1, answeredIds.size(), "one X-Request-Id on an answer recorded for Idempotency-Key replays");

        Received received = RECEIVED.poll(10, TimeUnit.SECONDS);
        assertNotNull(received, "the request reached the stand-in webhook-service");
        assertEquals("/accounts/" + ACCOUNT + "/webhooks", received.path());
        assertEquals("{\"name\":\"hook\"}", received.body());
        CLIENT_IDENTITY_HEADERS.forEach(name -> assertFalse(received.headers().containsKey(name),
                name + " must not reach a service"));
        assertEquals(List.of(key), received.headers().get("Idempotency-Key"), "the client's key, once, unchanged");
        JsonWebToken token = verify(received.headers().getFirst("Authorization").substring("Bearer ".length()));
        assertEquals(ACCOUNT.toString(), token.getClaim(IdentityClaims.ACCOUNT));
    }

    /** Verifies the identity token as every service does: the gateway's key, issuer and audience. */
    private static JsonWebToken verify(String jwt) throws Exception {
        String pem = Files.readString(Path.of("..", "deploy", "local", "keys", "local-dev-internal-public.pem"));
        JWTAuthContextInfo info = new JWTAuthContextInfo(KeyUtils.decodePublicKey(pem), IdentityClaims.ISSUER);
        info.setExpectedAudience(Set.of(IdentityClaims.AUDIENCE));
        return new DefaultJWTParser(info).parse(jwt);
    }
}
