package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.endsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class LogoAndCheckoutTest {

    static final byte[] PNG = { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 'I', 'H', 'D', 'R' };

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void aPngLogoIsStoredAndServedAtAStableUrl() {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);
        given().auth().oauth2(TestTokens.admin(account))
                .multiPart("file", "logo.bin", PNG, "application/octet-stream")
                .when().post("/accounts/" + account + "/merchants/" + merchant + "/uploadlogo")
                .then().statusCode(200)
                .body("logoFilename", equalTo(merchant + ".png"))
                .body("logoURL", endsWith("/accounts/" + account + "/merchants/" + merchant + "/logo"));
        given().auth().oauth2(TestTokens.admin(account))
                .when().get("/accounts/" + account + "/merchants/" + merchant)
                .then().body("logoFilename", equalTo(merchant + ".png"));
        byte[] served = given().auth().oauth2(TestTokens.anonymous())
                .when().get("/accounts/" + account + "/merchants/" + merchant + "/logo")
                .then().statusCode(200).contentType("image/png")
                .header("X-Content-Type-Options", "nosniff")
                .extract().asByteArray();
        assertArrayEquals(PNG, served);
    }

    @Test
    void logoFilenameIsOnlyEverTheNameTheUploadGave() {
        UUID account = TestAccounts.newAccount();
        String withName = TestAccounts.MINIMAL_MERCHANT.replace("}", ",\"logoFilename\":\"../../etc/passwd\"}");
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body(withName)
                .when().post("/accounts/" + account + "/merchants")
                .then().statusCode(400).body("errors.field", hasItem("logoFilename"));

        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);
        String path = "/accounts/" + account + "/merchants/" + merchant;
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body(TestAccounts.MINIMAL_MERCHANT.replace("}", ",\"logoFilename\":\"" + merchant + ".png\"}"))
                .when().put(path).then().statusCode(400).body("errors.field", hasItem("logoFilename"));
        given().auth().oauth2(TestTokens.admin(account)).multiPart("file", "logo.png", PNG, "image/png")
                .when().post(path + "/uploadlogo").then().statusCode(200);
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body(TestAccounts.MINIMAL_MERCHANT.replace("}", ",\"logoFilename\":\"" + merchant + ".png\"}"))
                .when().put(path).then().statusCode(200).body("logoFilename", equalTo(merchant + ".png"));
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body(TestAccounts.MINIMAL_MERCHANT.replace("}", ",\"logoFilename\":\"<script>.png\"}"))
                .when().put(path).then().statusCode(400).body("errors.field", hasItem("logoFilename"));
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body(TestAccounts.MINIMAL_MERCHANT)
                .when().put(path).then().statusCode(200).body("logoFilename", equalTo(merchant + ".png"));
    }

    @Test
    void aLogoIsRecognisedByContentAndLimitedInSize() {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);
        String path = "/accounts/" + account + "/merchants/" + merchant + "/uploadlogo";
        given().auth().oauth2(TestTokens.admin(account))
                .multiPart("file", "logo.png", "<svg>not really a png</svg>".getBytes(), "image/png")
                .when().post(path).then().statusCode(415).contentType("application/problem+json");
        byte[] huge = Arrays.copyOf(PNG, 10 * 1024 * 1024 + 1);
        given().auth().oauth2(TestTokens.admin(account)).multiPart("file", "big.png", huge, "image/png")
                .when().post(path).then().statusCode(413).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.admin(account)).multiPart("other", "x.png", PNG, "image/png")
                .when().post(path).then().statusCode(400).body("errors.field", hasItem("file"));
        byte[] webp = "RIFF\0\0\0\0WEBPVP8 ".getBytes();
        given().auth().oauth2(TestTokens.admin(account)).multiPart("file", "x.webp", webp, "image/webp")
                .when().post(path).then().statusCode(200).body("logoFilename", endsWith(".webp"));
    }

    @Test
    void aNewMerchantsCheckoutShowsTheValuesThatApply() {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);
        String scoped = TestTokens.claims("pk0", "publishable", IdentityClaims.ROLE_PUBLISHABLE, account)
                .claim(IdentityClaims.MERCHANT, merchant).sign(TestTokens.key());
        given().auth().oauth2(scoped).when().get("/merchant/config")
                .then().statusCode(200)
                .body("allowedAssets", hasSize(4))
                .body("checkoutConfig.theme.primaryColor", equalTo("#1A56DB"))
                .body("checkoutConfig.flow.skipConfirmationPage", is(false))
                .body("settlementFrequency", equalTo("daily"))
                .body("settlementAnchor", org.hamcrest.Matchers.notNullValue())
                .body("support.email", equalTo("ops@acme.example"));
    }

    @Test
    void checkoutReadsTheMerchantOfAScopedOrSubMerchantKey() {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT.replace("}",
                ",\"externalMID\":\"till-7\",\"checkoutConfig\":{\"termNotice\":\"Shop terms\"}}"));
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body(TestAccounts.MINIMAL_MERCHANT.replace("}", ",\"allowedCrypto\":\"USDC\",\"cancelTransactionEnabled\":true,"
                        + "\"checkoutConfig\":{\"termNotice\":\"Shop terms\"}}"))
                .when().put("/accounts/" + account + "/merchants/" + merchant).then().statusCode(200);
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"settlementFrequency\":\"daily\"}").when().put("/operator/accounts/" + account)
                .then().statusCode(200);

        String scoped = TestTokens.claims("pk1", "publishable", IdentityClaims.ROLE_PUBLISHABLE, account)
                .claim(IdentityClaims.MERCHANT, merchant).sign(TestTokens.key());
        given().auth().oauth2(scoped).when().get("/merchant/config")
                .then().statusCode(200)
                .body("allowedAssets", hasSize(1))
                .body("allowedAssets[0].code", equalTo("USDC"))
                .body("allowedAssets[0].networks", hasItem("polygon"))
                .body("cancelTransactionEnabled", is(true))
                .body("checkoutConfig.termNotice", equalTo("Shop terms"))
                .body("settlementFrequency", equalTo("daily"))
                .body("$", org.hamcrest.Matchers.hasKey("settlementAnchor"))
                .body("$", org.hamcrest.Matchers.hasKey("support"));

        String subMerchant = TestTokens.claims("pk2", "publishable", IdentityClaims.ROLE_PUBLISHABLE, account)
                .claim(IdentityClaims.MERCHANT_REF, "till-7").sign(TestTokens.key());
        given().auth().oauth2(subMerchant).when().get("/configuration")
                .then().statusCode(200)
                .body("cryptoPayEnabled", is(true))
                .body("appPayEnabled", is(false))
                .body("walletPayEnabled", is(true))
                .body("walletConnectEnabled", is(false))
                .body("platformPayCluster", not(equalTo(null)))
                .body("allowedAssets.code", equalTo(java.util.List.of("USDC")));

        String unknownSub = TestTokens.claims("pk3", "publishable", IdentityClaims.ROLE_PUBLISHABLE, account)
                .claim(IdentityClaims.MERCHANT_REF, "no-such-till").sign(TestTokens.key());
        given().auth().oauth2(unknownSub).when().get("/merchant/config").then().statusCode(401);

        String accountWide = TestTokens.claims("pk4", "publishable", IdentityClaims.ROLE_PUBLISHABLE, account)
                .sign(TestTokens.key());
        given().auth().oauth2(accountWide).when().get("/merchant/config")
                .then().statusCode(200).body("allowedAssets", hasSize(4)).body("cancelTransactionEnabled", is(false));
        given().auth().oauth2(TestTokens.admin(account)).when().get("/merchant/config").then().statusCode(403);
    }
}
