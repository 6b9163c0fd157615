package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.Suite;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security finding "HTTP metrics are labelled with raw paths" (docs/security.md, docs/decisions.md §27): the gateway's
 * request metrics carried every path as called, so whoever reads them learns other tenants' transaction and account
 * ids (and the label limit overflows). They are labelled by the route table's template; a path that matches no route
 * gets one fixed label.
 */
class MetricsLabelsIT {

    @BeforeAll
    static void startSuite() {
        Suite.get();
    }

    @Test
    void gatewayRequestMetricsNameTheRouteTemplateNeverTheRawPath() {
        String transactionId = UUID.randomUUID().toString();
        String accountId = UUID.randomUUID().toString();
        String strayId = UUID.randomUUID().toString();
        given().baseUri(Suite.gatewayUrl()).get("/transaction/" + transactionId).then().statusCode(401);
        given().baseUri(Suite.gatewayUrl()).header("X-Api-Key", "ak_not_a_key")
                .get("/accounts/" + accountId + "/keys").then().statusCode(401);
        given().baseUri(Suite.gatewayUrl()).get("/no-such-thing/" + strayId).then().statusCode(404);

        String metrics = given().baseUri("http://127.0.0.1:" + Suite.managementPort(Suite.GATEWAY_PORT))
                .get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("uri=\"/transaction/{transactionID}\""), "labelled by template:\n" + excerpt(metrics));
        assertTrue(metrics.contains("uri=\"/accounts/{accountUUID}/keys\""), "labelled by template:\n" + excerpt(metrics));
        assertTrue(metrics.contains("uri=\"/{unmatched}\""), "unmatched paths share one label:\n" + excerpt(metrics));
        assertFalse(metrics.contains(transactionId), "a transaction id leaked into the metrics");
        assertFalse(metrics.contains(accountId), "an account id leaked into the metrics");
        assertFalse(metrics.contains(strayId), "an unmatched path leaked into the metrics");
    }

    private static String excerpt(String metrics) {
        return metrics.lines().filter(l -> l.startsWith("http_server_requests_seconds_count")).limit(60)
                .reduce("", (a, b) -> a + b + "\n");
    }
}
