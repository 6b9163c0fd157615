package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The internal read of a merchant's effective configuration that transaction-service makes with the caller's own
 * identity token when its merchant view lags: it answers only the token's own merchant.
 */
@QuarkusTest
class InternalConfigurationTest {

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void answersOnlyTheMerchantOfTheCallersToken() {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);
        String sibling = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);
        UUID otherAccount = TestAccounts.newAccount();
        String path = "/internal/merchants/" + merchant + "/configuration";

        String scoped = TestTokens.claims("pk", "publishable", IdentityClaims.ROLE_PUBLISHABLE, account)
                .claim(IdentityClaims.MERCHANT, merchant).sign(TestTokens.key());
        given().auth().oauth2(scoped).get(path).then().statusCode(200)
                .body("merchantId", equalTo(merchant)).body("accountId", equalTo(account.toString()))
                .body("status", equalTo(1)).body("refundWindowHours", equalTo(720))
                .body("cryptoNetworkConfigs.base.USDC.minConfirmsLow", equalTo(3));
        String apiKeyWithMid = TestTokens.claims("ak", "api", IdentityClaims.ROLE_ADMIN, account)
                .claim(IdentityClaims.MERCHANT, merchant).sign(TestTokens.key());
        given().auth().oauth2(apiKeyWithMid).get(path).then().statusCode(200);

        given().auth().oauth2(scoped).get("/internal/merchants/" + sibling + "/configuration")
                .then().statusCode(404);
        given().auth().oauth2(TestTokens.admin(account)).get(path).then().statusCode(404);
        String otherAccountsKey = TestTokens.claims("pk", "publishable", IdentityClaims.ROLE_PUBLISHABLE, otherAccount)
                .claim(IdentityClaims.MERCHANT, merchant).sign(TestTokens.key());
        given().auth().oauth2(otherAccountsKey).get(path).then().statusCode(404);
        given().auth().oauth2(TestTokens.operator()).get(path).then().statusCode(403);
        given().get(path).then().statusCode(401);
    }
}
