package dev.cryptopay.reporting.testing;

import static io.restassured.RestAssured.given;

import dev.cryptopay.support.testing.TestTokens;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;
import io.restassured.config.JsonConfig;
import io.restassured.path.json.config.JsonPathConfig;

/** REST Assured as the tests use it: numbers read as exact BigDecimal, requests logged when a check fails. */
public final class Api {

    private Api() {
    }

    public static void configure() {
        RestAssured.config = RestAssured.config().jsonConfig(
                JsonConfig.jsonConfig().numberReturnType(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    /** An admin key of {@code account}. */
    public static RequestSpecification as(UUID account) {
        return given().auth().oauth2(TestTokens.admin(account));
    }

    /**
     * GET {@code /accounts/{account}/<path>} with query parameters given as name, value, name, value, ... (a name may
     * repeat); the answer must be 200.
     */
    public static JsonPath get(UUID account, String path, Object... parameters) {
        RequestSpecification request = as(account);
        for (int i = 0; i < parameters.length; i += 2) {
            request.queryParam(parameters[i].toString(), parameters[i + 1]);
        }
        return request.get("/accounts/" + account + "/" + path).then().statusCode(200).extract().jsonPath();
    }
}
