package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Security findings of the merchant logo (docs/security.md; docs/decisions.md §38), through the gateway:
 * "{@code logoFilename} is free text on write" (it may only be the name the logo upload gave, or left out) and "logos
 * are served without {@code X-Content-Type-Options: nosniff}" (the public, keyless logo URL is on the API's origin).
 */
class MerchantLogoIT {

    private static final byte[] PNG =
            { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 'I', 'H', 'D', 'R' };

    @BeforeAll
    static void startSuite() {
        Suite.throughGateway();
    }

    @Test
    void logoFilenameIsNotFreeText() {
        SandboxAccount account = SandboxAccount.create("Logo IT names");
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body(withLogoFilename("https://evil.example/x.svg"))
                .when().post("/accounts/" + account.accountId() + "/merchants")
                .then().statusCode(400).body("code", equalTo("validation_failed"))
                .body("errors.field", hasItem("logoFilename"));

        String merchant = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        String path = "/accounts/" + account.accountId() + "/merchants/" + merchant;
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body(withLogoFilename("../other-merchant.png"))
                .when().put(path).then().statusCode(400).body("errors.field", hasItem("logoFilename"));

        given().header("X-Api-Key", account.apiKey()).multiPart("file", "logo.png", PNG, "image/png")
                .when().post(path + "/uploadlogo").then().statusCode(200);
        // what a read answers may be sent back unchanged
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body(withLogoFilename(merchant + ".png"))
                .when().put(path).then().statusCode(200).body("logoFilename", equalTo(merchant + ".png"));
        given().header("X-Api-Key", account.apiKey()).get(path)
                .then().statusCode(200).body("logoFilename", equalTo(merchant + ".png"));
    }

    @Test
    void theKeylessLogoIsServedWithNosniff() {
        SandboxAccount account = SandboxAccount.create("Logo IT nosniff");
        String merchant = account.newMerchant(SandboxAccount.MINIMAL_MERCHANT);
        String path = "/accounts/" + account.accountId() + "/merchants/" + merchant;
        given().header("X-Api-Key", account.apiKey()).multiPart("file", "logo.png", PNG, "image/png")
                .when().post(path + "/uploadlogo").then().statusCode(200);
        given().get(path + "/logo")
                .then().statusCode(200)
                .contentType("image/png")
                .header("X-Content-Type-Options", equalTo("nosniff"));
    }

    private static String withLogoFilename(String name) {
        return SandboxAccount.MINIMAL_MERCHANT.replace("}", ",\"logoFilename\":\"" + name + "\"}");
    }
}
