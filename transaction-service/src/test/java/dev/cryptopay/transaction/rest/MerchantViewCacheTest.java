package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static org.hamcrest.Matchers.equalTo;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.transaction.service.TestConfigurations;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeAll;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Creations reuse the merchant read from the view for up to a second (docs/decisions.md §68), yet a change this
 * replica consumes applies to the very next creation: the cached copy goes with the change.
 */
@QuarkusTest
class MerchantViewCacheTest {

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @Test
    void aMerchantDisabledOrReconfiguredOnThisReplicaAppliesToTheNextCreationAtOnce() {
        Fixtures.rate("BTC", "50000", null);
        MerchantConfiguration m = merchant(c -> c.allowedCrypto("BTC", "USDC"));
        create(publishable(m), body("10", "USD", "BTC", "bitcoin"));
        create(publishable(m), body("10", "USD", "BTC", "bitcoin")); // read from the cached copy

        // The merchant no longer accepts BTC: the next creation, well within the second, sees it.
        UUID merchantId = UUID.fromString(m.merchantId());
        UUID accountId = UUID.fromString(m.accountId());
        Fixtures.publish(TestConfigurations.merchant(c -> c.merchantId(merchantId).accountId(accountId)
                .allowedCrypto("USDC").version(m.version() + 1)));
        publishable(m).contentType(ContentType.JSON).body(body("10", "USD", "BTC", "bitcoin"))
                .when().post("/transaction").then().statusCode(400).body("code", equalTo("validation_failed"));

        // Disabled: refused at once too.
        Fixtures.publish(TestConfigurations.merchant(c -> c.merchantId(merchantId).accountId(accountId)
                .status(MerchantConfiguration.DISABLED).version(m.version() + 2)));
        publishable(m).contentType(ContentType.JSON).body(body("10", "USD", "USDC", "base"))
                .when().post("/transaction").then().statusCode(409);
    }
}
