package dev.cryptopay.systemtests;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** An account made through the gateway exactly as an integration would: operator token, then its own keys. */
public record SandboxAccount(String accountId, String apiKey) {

    public static final String MINIMAL_MERCHANT = """
            {"name":"Corner Shop","address1":"1 Main St","city":"Berlin","region":"BE","country":"DE"}""";

    public static SandboxAccount create(String name) {
        JsonPath account = given().auth().oauth2(Suite.get().operatorToken()).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\",\"email\":\"it@example.com\"}")
                .when().post("/operator/accounts")
                .then().statusCode(201).extract().jsonPath();
        return new SandboxAccount(account.getString("accountUUID"), account.getString("apiKey.generatedKey"));
    }

    /** A new key of this account; {@code role} null for publishable keys. */
    public String newKey(String keyType, String role, String merchantUUID) {
        var request = given().header("X-Api-Key", apiKey).contentType(ContentType.JSON);
        if (merchantUUID != null) {
            request.queryParam("merchantUUID", merchantUUID);
        }
        String body = role == null ? "{\"keyType\":\"" + keyType + "\",\"name\":\"it\"}"
                : "{\"keyType\":\"" + keyType + "\",\"name\":\"it\",\"role\":\"" + role + "\"}";
        return request.body(body).when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(201).extract().path("generatedKey");
    }

    public String newMerchant(String body) {
        return given().header("X-Api-Key", apiKey).contentType(ContentType.JSON).body(body)
                .when().post("/accounts/" + accountId + "/merchants")
                .then().statusCode(201).extract().path("UUID");
    }

    /** The UUID of one of this account's keys, found by its full value (publishable) or masked tail (API). */
    public String keyId(String key) {
        JsonPath keys = given().header("X-Api-Key", apiKey).get("/accounts/" + accountId + "/keys")
                .then().statusCode(200).extract().jsonPath();
        String tail = key.substring(key.length() - 4);
        String id = keys.getString("keys.api.find { it.key == 'ak_…" + tail + "' }.UUID");
        return id != null ? id : keys.getString("keys.publishable.find { it.key == '" + key + "' }.UUID");
    }
}
