package dev.cryptopay.systemtests.security;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * What the transaction security tests share: accounts, merchants and keys made through the gateway, transactions
 * created once the new key and merchant have travelled, verifications, and reads of transaction-service's database.
 */
final class TransactionSecurityFixtures {

    static final byte[] PNG = { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A };
    static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private TransactionSecurityFixtures() {
    }

    record Account(String id, String apiKey) {
    }

    static Suite start() {
        Suite suite = Suite.throughGateway();
        given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"rates\":[{\"code\":\"EUR\",\"usd\":\"1.10\"},{\"code\":\"BTC\",\"usd\":\"50000\"},"
                        + "{\"code\":\"USDC\",\"usd\":\"1\"}]}")
                .when().put("/operator/rates").then().statusCode(200);
        return suite;
    }

    static Account newAccount(String name) {
        JsonPath created = given().auth().oauth2(Suite.get().operatorToken()).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\",\"email\":\"it@tx-security.example\"}")
                .when().post("/operator/accounts").then().statusCode(201).extract().jsonPath();
        Account account = new Account(created.getString("accountUUID"), created.getString("apiKey.generatedKey"));
        ServiceDatabases.awaitTrue(() -> given().header("X-Api-Key", account.apiKey()).get("/accounts/" + account.id() + "/keys")
                .statusCode() == 200, "the account's key reached the gateway");
        return account;
    }

    /** A merchant taking BTC on bitcoin and USDC; with {@code kyc}, every order of 1,000 or more needs a verification. */
    static String newMerchant(Account account, String name, boolean kyc) {
        String merchant = given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\",\"address1\":\"1 Main St\",\"city\":\"Berlin\",\"region\":\"BE\","
                        + "\"country\":\"DE\"}")
                .when().post("/accounts/" + account.id() + "/merchants").then().statusCode(201).extract()
                .path("UUID");
        if (kyc) {
            given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                    .body("{\"name\":\"" + name + "\",\"address1\":\"1 Main St\",\"city\":\"Berlin\",\"region\":\"BE\","
                            + "\"country\":\"DE\",\"kycEnabled\":true,\"kycThreshold\":1000,"
                            + "\"allowedCrypto\":\"BTC,USDC\"}")
                    .when().put("/accounts/" + account.id() + "/merchants/" + merchant).then().statusCode(200);
        }
        return merchant;
    }

    static String newPublishableKey(Account account, String merchant) {
        return given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"keyType\":\"publishable\",\"name\":\"checkout\"}").queryParam("merchantUUID", merchant)
                .when().post("/accounts/" + account.id() + "/keys").then().statusCode(201).extract()
                .path("generatedKey");
    }

    static RequestSpecification asPublishable(String key) {
        return given().header("X-Publishable-Key", key);
    }

    static RequestSpecification asApiKey(Account account, String merchant) {
        return given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant);
    }

    static String order(String amount, String currency, String asset, String network) {
        return "{\"amount\":" + amount + ",\"amountCurrency\":\"" + currency + "\",\"asset\":\"" + asset
                + "\",\"network\":\"" + network + "\"}";
    }

    /** POST /transaction until the key and the merchant (and its settings) have arrived and {@code until} holds. */
    static JsonPath awaitCreated(String publishable, String body, Predicate<JsonPath> until) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (true) {
            Response response = asPublishable(publishable).contentType(ContentType.JSON).body(body)
                    .when().post("/transaction");
            if (response.statusCode() == 201 && until.test(response.jsonPath())) {
                return response.jsonPath();
            }
            assertTrue(Instant.now().isBefore(deadline), "no transaction created within 30 s; last answer "
                    + response.statusCode() + " " + response.asString());
            ServiceDatabases.sleep(200);
        }
    }

    /** A transaction waiting for KYC (status -3) of a merchant made with {@code kyc} true. */
    static String awaitKycTransaction(String publishable) {
        return awaitCreated(publishable, order("2500", "USD", "BTC", "bitcoin"), r -> r.getInt("status") == -3)
                .getString("transactionId");
    }

    /** A complete verification of {@code transactionId}; {@code document} is the front's content. */
    static JsonPath verify(String publishable, String transactionId, String firstName, String email,
            boolean storeKyc, byte[] document) {
        return asPublishable(publishable)
                .multiPart("documentType", "PASSPORT").multiPart("firstName", firstName)
                .multiPart("lastName", "Lovelace").multiPart("email", email)
                .multiPart("street", "1 Analytical Row").multiPart("city", "London").multiPart("region", "LND")
                .multiPart("postalCode", "N1 7AA").multiPart("country", "GB")
                .multiPart("storeKYC", String.valueOf(storeKyc))
                .multiPart("documentFiles", "front.png", document, "image/png")
                .when().post("/transaction/" + transactionId + "/verification").then().statusCode(200).extract()
                .jsonPath();
    }

    /** A PNG (by its signature) whose bytes carry {@code marker} in clear. */
    static byte[] pngWith(String marker) {
        byte[] text = marker.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] png = new byte[PNG.length + text.length];
        System.arraycopy(PNG, 0, png, 0, PNG.length);
        System.arraycopy(text, 0, png, PNG.length, text.length);
        return png;
    }

    static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    /** Rows of a query on transaction-service's database, each as its columns' values. */
    static List<List<Object>> rows(String sql, Object... params) {
        return ServiceDatabases.rows("transaction", sql, params);
    }
}
