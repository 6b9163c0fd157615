package dev.cryptopay.systemtests.transactions;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import io.restassured.http.ContentType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * transaction-service's merchant view while its database refuses the view's writes, as during a database outage: a
 * merchant's new configuration is retried until it is stored, the service stays live and keeps creating payments
 * with the configuration it has, and takes the new one once the database takes writes again, without a restart
 * (docs/decisions.md §116; the gateway's views have their own test, GatewayViewsOutageIT). The refusal is a trigger
 * on the view's table, dropped again at the end. The configuration that shows is the QR lifetime: a transaction's
 * {@code expiration} is its creation plus the merchant's {@code qrExpirationSeconds}.
 */
class TransactionViewsOutageIT {

    private static final String REFUSAL = "the merchant view refuses writes (TransactionViewsOutageIT)";
    private static final int LONG_QR_SECONDS = 3600;
    private static final int SHORT_QR_SECONDS = 120;

    @Test
    void aMerchantChangeThatCannotBeStoredIsRetriedAndTakenOnceItCanWhileTheServiceStaysLive() throws Exception {
        Suite.throughGateway();
        SandboxAccount account = SandboxAccount.create("Transaction views outage IT");
        String merchant = account.newMerchant(merchantBody(LONG_QR_SECONDS));
        ServiceDatabases.awaitTrue(() -> lifetimeOfANewTransaction(account, merchant) > LONG_QR_SECONDS - 60,
                "transaction-service quotes the merchant's long QR lifetime");

        Path log = Suite.get().log("transaction");
        long logged = Files.size(log);
        try (AutoCloseable refusal = ServiceDatabases.refusingWrites("transaction", "merchant_view", REFUSAL)) {
            given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                    .body(merchantBody(SHORT_QR_SECONDS))
                    .when().put("/accounts/" + account.accountId() + "/merchants/" + merchant)
                    .then().statusCode(200);
            ServiceDatabases.awaitTrue(
                    () -> Suite.linesSince(log, logged).stream().anyMatch(line -> line.contains(REFUSAL)),
                    "transaction-service tried to store the merchant's change and was refused");
            assertEquals(200, Suite.liveness("transaction"), "transaction-service is live while its view cannot be stored");
            long lifetime = lifetimeOfANewTransaction(account, merchant);
            assertTrue(lifetime > LONG_QR_SECONDS - 60,
                    "the change is not in the view yet: a creation still gets the long lifetime, got " + lifetime);
        }

        // The change is tried again (every 5 s at the longest) and stored now.
        ServiceDatabases.awaitTrue(() -> lifetimeOfANewTransaction(account, merchant) <= SHORT_QR_SECONDS,
                "the short QR lifetime taken once the view takes writes again");
        assertEquals(200, Suite.liveness("transaction"), "live throughout");
    }

    private static String merchantBody(int qrSeconds) {
        return "{\"name\":\"Outage Shop\",\"address1\":\"1 Main St\",\"city\":\"Berlin\",\"region\":\"BE\","
                + "\"country\":\"DE\",\"allowedCrypto\":\"USDC\",\"cryptoNetworkConfigs\":{\"polygon\":"
                + "{\"cryptoAssetConfigs\":{\"USDC\":{\"minConfirmsLow\":1,\"minConfirmsHigh\":1,"
                + "\"qrExpirationSeconds\":" + qrSeconds + "}}}}}";
    }

    /** Creates a transaction for the merchant and answers its QR lifetime in seconds (expiration less now). */
    private static long lifetimeOfANewTransaction(SandboxAccount account, String merchant) {
        String id = given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                .contentType(ContentType.JSON)
                .body("{\"amount\":1,\"amountCurrency\":\"USD\",\"asset\":\"USDC\",\"network\":\"polygon\"}")
                .when().post("/transaction").then().statusCode(201).extract().path("transactionId");
        String expiration = given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant)
                .when().get("/transaction/" + id).then().statusCode(200).extract().path("expiration");
        return Duration.between(Instant.now(), Instant.parse(expiration)).toSeconds();
    }
}
