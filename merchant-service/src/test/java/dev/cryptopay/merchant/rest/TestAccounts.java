package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;

import dev.cryptopay.support.testing.TestTokens;
import io.restassured.http.ContentType;
import java.util.UUID;

/** Accounts and merchants made through the operator and merchant endpoints, for the tests of this module. */
final class TestAccounts {

    static final String MINIMAL_MERCHANT = """
            {"name":"Corner Shop","address1":"1 Main St","city":"Berlin","region":"BE","country":"DE"}""";

    private TestAccounts() {
    }

    static UUID newAccount() {
        return UUID.fromString(given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"name\":\"Acme\",\"email\":\"ops@acme.example\"}")
                .when().post("/operator/accounts")
                .then().statusCode(201).extract().path("accountUUID"));
    }

    static String newMerchant(UUID account, String body) {
        return given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body(body)
                .when().post("/accounts/" + account + "/merchants")
                .then().statusCode(201).extract().path("UUID");
    }
}
