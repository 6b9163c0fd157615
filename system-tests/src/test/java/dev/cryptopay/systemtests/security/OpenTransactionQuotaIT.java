package dev.cryptopay.systemtests.security;

import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.asApiKey;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.asPublishable;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.awaitCreated;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newAccount;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newMerchant;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newPublishableKey;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.order;
import static org.hamcrest.Matchers.equalTo;

import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.security.TransactionSecurityFixtures.Account;
import io.restassured.http.ContentType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The quota of open transactions per merchant (issue #13, "Abuse through public keys"; docs/decisions.md §25,
 * §47): whoever holds a merchant's publishable key could open transactions without end. transaction-service runs
 * here with the platform default lowered to 3 ({@code cryptopay.limits.open-transactions-per-merchant}); the
 * fourth open transaction of a merchant is 409 {@code limit_reached}, another merchant is not affected, and a
 * transaction that ends makes room again.
 */
class OpenTransactionQuotaIT {

    private static final int LIMIT = 3;
    private static Suite suite;

    @BeforeAll
    static void start() {
        suite = TransactionSecurityFixtures.start();
        suite.stopService("transaction");
        suite.startReplicas("transaction", Map.of("transaction", Suite.port("transaction")),
                Map.of("CRYPTOPAY_LIMITS_OPEN_TRANSACTIONS_PER_MERCHANT", String.valueOf(LIMIT)));
    }

    @AfterAll
    static void restore() {
        suite.restart("transaction");
    }

    @Test
    void aMerchantsOpenTransactionsStopAtItsLimit() {
        Account account = newAccount("Quota Ltd");
        String merchant = newMerchant(account, "Busy Shop", false);
        String other = newMerchant(account, "Quiet Shop", false);
        String publishable = newPublishableKey(account, merchant);
        String otherPublishable = newPublishableKey(account, other);
        String body = order("10", "USD", "BTC", "bitcoin");

        List<String> open = new ArrayList<>();
        open.add(awaitCreated(publishable, body, r -> true).getString("transactionId"));
        while (open.size() < LIMIT) {
            open.add(asPublishable(publishable).contentType(ContentType.JSON).body(body).when().post("/transaction")
                    .then().statusCode(201).extract().path("transactionId"));
        }
        asPublishable(publishable).contentType(ContentType.JSON).body(body).when().post("/transaction")
                .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("limit_reached"));
        // the API key of the account meets the same limit for that merchant
        asApiKey(account, merchant).contentType(ContentType.JSON).body(body).when().post("/transaction")
                .then().statusCode(409).body("code", equalTo("limit_reached"));

        // another merchant of the account has its own count
        awaitCreated(otherPublishable, body, r -> true);

        // a cancelled transaction is no longer open: room for one more, and only one
        asApiKey(account, merchant).contentType(ContentType.JSON).body("{\"reason\":\"quota\"}")
                .when().patch("/transaction/" + open.get(0) + "/cancel").then().statusCode(200);
        asPublishable(publishable).contentType(ContentType.JSON).body(body).when().post("/transaction")
                .then().statusCode(201);
        asPublishable(publishable).contentType(ContentType.JSON).body(body).when().post("/transaction")
                .then().statusCode(409).body("code", equalTo("limit_reached"));
    }
}
