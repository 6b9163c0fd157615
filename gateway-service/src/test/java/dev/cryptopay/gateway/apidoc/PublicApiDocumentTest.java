package dev.cryptopay.gateway.apidoc;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET /openapi serves the committed docs/openapi.yaml, publicly, as YAML or JSON, and never from a service. */
@QuarkusTest
class PublicApiDocumentTest {

    static byte[] committed;

    @BeforeAll
    static void readCommitted() throws Exception {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        committed = Files.readAllBytes(Path.of("..", "docs", "openapi.yaml"));
    }

    @Test
    void servesTheCommittedYamlWithoutAKey() {
        byte[] served = given().when().get("/openapi")
                .then().statusCode(200)
                .contentType(startsWith("application/yaml"))
                .header("X-Request-Id", notNullValue())
                .extract().asByteArray();
        assertArrayEquals(committed, served, "the gateway serves docs/openapi.yaml byte for byte");
    }

    @Test
    void servesJsonToAClientThatPrefersIt() throws Exception {
        JsonNode expected = new YAMLMapper().readTree(committed);
        String preferred = given().accept("application/json").when().get("/openapi")
                .then().statusCode(200).contentType(startsWith("application/json")).extract().asString();
        String explicit = given().when().get("/openapi.json")
                .then().statusCode(200).contentType(startsWith("application/json")).extract().asString();
        ObjectMapper json = new ObjectMapper();
        assertEquals(expected, json.readTree(preferred));
        assertEquals(expected, json.readTree(explicit));
        given().accept("application/json;q=0.5, application/yaml").when().get("/openapi")
                .then().statusCode(200).contentType(startsWith("application/yaml"));
        given().accept("text/html").when().get("/openapi")
                .then().statusCode(200).contentType(startsWith("application/yaml"));
    }

    @Test
    void echoesASafeRequestIdAndIgnoresCredentials() {
        // A key (even an unknown one) changes nothing: the document is public and never reaches a service.
        given().header("X-Api-Key", "ak_unknown").header("X-Request-Id", "docs-1").when().get("/openapi")
                .then().statusCode(200).header("X-Request-Id", equalTo("docs-1"));
    }
}
