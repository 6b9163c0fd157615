package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;

import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class LookupResourceTest {

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void listsTheCatalogueAssetsWithTheirNetworks() {
        given().auth().oauth2(TestTokens.anonymous())
                .when().get("/assets")
                .then().statusCode(200)
                .body("code", hasItems("BTC", "ETH", "USDC", "USDT"))
                .body("find { it.code == 'USDC' }.type", org.hamcrest.Matchers.equalTo("token"))
                .body("find { it.code == 'USDC' }.networks", hasItems("ethereum", "polygon", "base"))
                .body("find { it.code == 'BTC' }.networks", hasItems("bitcoin"));
    }

    @Test
    void listsAll249CountryCodes() {
        given().auth().oauth2(TestTokens.anonymous())
                .when().get("/config/countries")
                .then().statusCode(200)
                .body("$", hasSize(249))
                .body("$", everyItem(matchesPattern("[A-Z]{2}")))
                .body("$", hasItems("US", "DE", "SG", "AX"));
    }

    @Test
    void refusesARequestWithoutAnIdentityToken() {
        given().when().get("/assets")
                .then().statusCode(401)
                .contentType("application/problem+json")
                .body("code", org.hamcrest.Matchers.equalTo("unauthorized"));
    }
}
