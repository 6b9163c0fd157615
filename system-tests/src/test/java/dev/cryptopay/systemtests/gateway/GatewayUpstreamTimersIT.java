package dev.cryptopay.systemtests.gateway;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway's timers of each service's answers (docs/decisions.md §108) on the running suite: requests through the
 * gateway are counted under the service that answered them and the class of its status, on the gateway's management
 * port.
 */
class GatewayUpstreamTimersIT {

    private static final String COUNT = "gateway_upstream_requests_seconds_count";
    private static final String SUM = "gateway_upstream_requests_seconds_sum";

    private static SandboxAccount account;
    private static String merchant;

    @BeforeAll
    static void setUp() {
        Suite.throughGateway();
        account = SandboxAccount.create("Upstream Timers IT");
        merchant = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        // the new merchant reaches the gateway through Kafka; from then on an unknown transaction is
        // transaction-service's 404
        ServiceDatabases.awaitTrue(() -> unknownTransaction().statusCode() == 404, "transaction-service's 404");
    }

    private static Response unknownTransaction() {
        return given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                .get("/transaction/" + UUID.randomUUID());
    }

    @Test
    void eachAnswerIsTimedUnderItsServiceAndOutcome() {
        double transactionOk = metric(COUNT, "transaction", "SUCCESS");
        double transactionOkSeconds = metric(SUM, "transaction", "SUCCESS");
        double transactionNotFound = metric(COUNT, "transaction", "CLIENT_ERROR");
        double merchantOk = metric(COUNT, "merchant", "SUCCESS");

        for (int i = 0; i < 3; i++) {
            given().header("X-Api-Key", account.apiKey()).header("X-Account-Id", account.accountId())
                    .queryParam("limit", 10).queryParam("page", 1).get("/transactions").then().statusCode(200);
        }
        for (int i = 0; i < 2; i++) {
            unknownTransaction().then().statusCode(404);
        }
        given().header("X-Api-Key", account.apiKey()).get("/accounts/" + account.accountId() + "/keys")
                .then().statusCode(200);

        double ok = metric(COUNT, "transaction", "SUCCESS") - transactionOk;
        double notFound = metric(COUNT, "transaction", "CLIENT_ERROR") - transactionNotFound;
        assertTrue(ok >= 3, "three 200s of transaction-service timed as SUCCESS, got " + ok);
        assertTrue(notFound >= 2, "two 404s of transaction-service timed as CLIENT_ERROR, got " + notFound);
        assertTrue(metric(SUM, "transaction", "SUCCESS") > transactionOkSeconds, "the answers took some time");
        assertTrue(metric(COUNT, "merchant", "SUCCESS") - merchantOk >= 1, "merchant-service's answer timed too");
    }

    /** One series of the gateway's upstream timers (0 before its first request). */
    private static double metric(String series, String service, String outcome) {
        return Suite.metricSum("gateway", series, "service=\"" + service + "\"", "outcome=\"" + outcome + "\"");
    }
}
