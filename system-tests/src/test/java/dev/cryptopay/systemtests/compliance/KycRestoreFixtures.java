package dev.cryptopay.systemtests.compliance;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * What the KYC restore, travel-rule and STR filing tests share (docs/decisions.md §64–§67): an account, a merchant
 * with the KYC gate or a regional travel-rule threshold, its publishable key, all made through the gateway.
 */
final class KycRestoreFixtures {

    static final byte[] PNG = { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 'i', 't' };

    private KycRestoreFixtures() {
    }

    record Shop(String accountId, String apiKey, String merchant, String publishable) {

        RequestSpecification asPublishable() {
            return given().header("X-Publishable-Key", publishable);
        }

        RequestSpecification asApiKey() {
            return given().header("X-Api-Key", apiKey).header("X-MID", merchant);
        }
    }

    static Suite start() {
        Suite suite = Suite.throughGateway();
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"EUR\",\"usd\":\"1.10\"},{\"code\":\"BTC\",\"usd\":\"50000\"},"
                        + "{\"code\":\"USDC\",\"usd\":\"1\"}]}")
                .when().put("/operator/rates").then().statusCode(200);
        return suite;
    }

    /** A new account and merchant; {@code settings} is merged into the merchant's PUT (e.g. the KYC gate). */
    static Shop shop(String name, String settings) {
        JsonPath created = given().auth().oauth2(Suite.get().operatorToken()).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\",\"email\":\"it@compliance.example\"}")
                .when().post("/operator/accounts").then().statusCode(201).extract().jsonPath();
        String account = created.getString("accountUUID");
        String apiKey = created.getString("apiKey.generatedKey");
        ServiceDatabases.awaitTrue(() -> given().header("X-Api-Key", apiKey).get("/accounts/" + account + "/keys").statusCode() == 200,
                "the account's key reached the gateway");
        String base = "\"name\":\"" + name + "\",\"address1\":\"1 Main St\",\"city\":\"Brussels\",\"region\":\"BE\","
                + "\"country\":\"BE\"";
        String merchant = given().header("X-Api-Key", apiKey).contentType(ContentType.JSON).body("{" + base + "}")
                .when().post("/accounts/" + account + "/merchants").then().statusCode(201).extract().path("UUID");
        given().header("X-Api-Key", apiKey).contentType(ContentType.JSON)
                .body("{" + base + ",\"allowedCrypto\":\"BTC,USDC\"," + settings + "}")
                .when().put("/accounts/" + account + "/merchants/" + merchant).then().statusCode(200);
        String publishable = given().header("X-Api-Key", apiKey).contentType(ContentType.JSON)
                .body("{\"keyType\":\"publishable\",\"name\":\"checkout\"}").queryParam("merchantUUID", merchant)
                .when().post("/accounts/" + account + "/keys").then().statusCode(201).extract().path("generatedKey");
        return new Shop(account, apiKey, merchant, publishable);
    }

    static String order(String amount, String currency, String asset, String network) {
        return "{\"amount\":" + amount + ",\"amountCurrency\":\"" + currency + "\",\"asset\":\"" + asset
                + "\",\"network\":\"" + network + "\"}";
    }

    /** POST /transaction until the key and the merchant's settings have arrived and {@code until} holds. */
    static JsonPath awaitCreated(Shop shop, String body, Predicate<JsonPath> until) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (true) {
            Response response = shop.asPublishable().contentType(ContentType.JSON).body(body).when()
                    .post("/transaction");
            if (response.statusCode() == 201 && until.test(response.jsonPath())) {
                return response.jsonPath();
            }
            assertTrue(Instant.now().isBefore(deadline), "no transaction created within 30 s; last answer "
                    + response.statusCode() + " " + response.asString());
            ServiceDatabases.sleep(200);
        }
    }

    /** The multipart of a complete verification, without the travel rule's originatorWallet. */
    static RequestSpecification verification(Shop shop, String email, boolean storeKyc) {
        return shop.asPublishable().multiPart("documentType", "PASSPORT").multiPart("firstName", "Ada")
                .multiPart("lastName", "Lovelace").multiPart("email", email)
                .multiPart("street", "1 Analytical Row").multiPart("city", "London").multiPart("region", "LND")
                .multiPart("postalCode", "N1 7AA").multiPart("country", "GB")
                .multiPart("storeKYC", String.valueOf(storeKyc))
                .multiPart("documentFiles", "front.png", PNG, "image/png");
    }
}
