package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each bad body is a 400 problem naming the offending field; nothing is stored. */
@QuarkusTest
class MerchantValidationTest {

    private static UUID account;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    /** One account for the whole table, made on first use (REST Assured knows the port only inside tests). */
    private static synchronized UUID account() {
        if (account == null) {
            account = TestAccounts.newAccount();
        }
        return account;
    }

    /** The minimal valid body with {@code fields} added or replacing its own. */
    private static String body(String fields) {
        String base = "\"name\":\"Shop\",\"address1\":\"1 Main St\",\"city\":\"Berlin\",\"region\":\"BE\",\"country\":\"DE\"";
        StringBuilder json = new StringBuilder("{").append(fields);
        for (String pair : base.split(",")) {
            String key = pair.substring(0, pair.indexOf(':'));
            if (!fields.contains(key)) {
                json.append(json.length() > 1 ? "," : "").append(pair);
            }
        }
        return json.append("}").toString();
    }

    static Stream<Arguments> badBodies() {
        String longText = "x".repeat(256);
        return Stream.of(
                Arguments.of("\"name\":\"\"", "name"),
                Arguments.of("\"name\":null", "name"),
                Arguments.of("\"name\":\"" + longText + "\"", "name"),
                Arguments.of("\"address1\":\"  \"", "address1"),
                Arguments.of("\"city\":null", "city"),
                Arguments.of("\"region\":\"\"", "region"),
                Arguments.of("\"country\":\"XX\"", "country"),
                Arguments.of("\"country\":\"de\"", "country"),
                Arguments.of("\"country\":null", "country"),
                Arguments.of("\"dba\":\"" + longText + "\"", "dba"),
                Arguments.of("\"address2\":\"" + longText + "\"", "address2"),
                Arguments.of("\"externalMID\":\"has spaces\"", "externalMID"),
                Arguments.of("\"externalMID\":\"" + "a".repeat(65) + "\"", "externalMID"),
                Arguments.of("\"merchantDiscountRate\":{\"percentage\":1.5}", "merchantDiscountRate.percentage"),
                Arguments.of("\"merchantDiscountRate\":{\"percentage\":-0.1}", "merchantDiscountRate.percentage"),
                Arguments.of("\"merchantDiscountRate\":{\"flatRate\":-1,\"flatRateCurrency\":\"USD\"}",
                        "merchantDiscountRate.flatRate"),
                Arguments.of("\"merchantDiscountRate\":{\"flatRate\":1,\"flatRateCurrency\":\"XYZ\"}",
                        "merchantDiscountRate.flatRateCurrency"),
                Arguments.of("\"merchantDiscountRate\":{\"flatRate\":1}", "merchantDiscountRate.flatRateCurrency"),
                Arguments.of("\"highThreshold\":-1", "highThreshold"),
                Arguments.of("\"highThreshold\":1000000000001", "highThreshold"),
                Arguments.of("\"highThreshold\":\"lots\"", "highThreshold"),
                Arguments.of("\"kycThreshold\":-0.01", "kycThreshold"),
                Arguments.of("\"kycThresholdCustodial\":-5", "kycThresholdCustodial"),
                Arguments.of("\"kycEnabled\":\"maybe\"", "kycEnabled"),
                Arguments.of("\"refundWindowHours\":-1", "refundWindowHours"),
                Arguments.of("\"refundWindowHours\":9000", "refundWindowHours"),
                Arguments.of("\"refundWindowHours\":1.5", "refundWindowHours"),
                Arguments.of("\"travelRulesRegionalThreshold\":{\"EU\":-1}", "travelRulesRegionalThreshold.EU"),
                Arguments.of("\"travelRulesRegionalThresholdCustodial\":{\"EU\":null}",
                        "travelRulesRegionalThresholdCustodial.EU"),
                Arguments.of("\"allowedWallets\":[\"\"]", "allowedWallets[0]"),
                Arguments.of("\"allowedWalletsConfig\":[{\"name\":\"\"}]", "allowedWalletsConfig[0].name"),
                Arguments.of("\"allowedWalletsConfig\":[{\"name\":\"A\",\"order\":-1}]", "allowedWalletsConfig[0].order"),
                Arguments.of("\"cryptoNetworkConfigs\":{\"dogechain\":{\"cryptoAssetConfigs\":{}}}",
                        "cryptoNetworkConfigs.dogechain"),
                Arguments.of("\"cryptoNetworkConfigs\":{\"bitcoin\":{\"cryptoAssetConfigs\":{\"ETH\":"
                        + "{\"minConfirmsLow\":1,\"minConfirmsHigh\":2,\"qrExpirationSeconds\":60}}}}",
                        "cryptoNetworkConfigs.bitcoin.cryptoAssetConfigs.ETH"),
                Arguments.of("\"cryptoNetworkConfigs\":{\"bitcoin\":{\"cryptoAssetConfigs\":{\"BTC\":"
                        + "{\"minConfirmsLow\":6,\"minConfirmsHigh\":2,\"qrExpirationSeconds\":60}}}}",
                        "cryptoNetworkConfigs.bitcoin.cryptoAssetConfigs.BTC.minConfirmsLow"),
                Arguments.of("\"cryptoNetworkConfigs\":{\"bitcoin\":{\"cryptoAssetConfigs\":{\"BTC\":"
                        + "{\"minConfirmsLow\":1,\"minConfirmsHigh\":2,\"qrExpirationSeconds\":0}}}}",
                        "cryptoNetworkConfigs.bitcoin.cryptoAssetConfigs.BTC.qrExpirationSeconds"),
                Arguments.of("\"cryptoNetworkConfigs\":{\"bitcoin\":{\"cryptoAssetConfigs\":{\"BTC\":"
                        + "{\"minConfirmsHigh\":2,\"qrExpirationSeconds\":60}}}}",
                        "cryptoNetworkConfigs.bitcoin.cryptoAssetConfigs.BTC.minConfirmsLow"),
                Arguments.of("\"checkoutConfig\":{\"logoURL\":\"ftp://example.com/logo.png\"}", "checkoutConfig.logoURL"),
                Arguments.of("\"checkoutConfig\":{\"logoURL\":\"not a url\"}", "checkoutConfig.logoURL"),
                Arguments.of("\"checkoutConfig\":{\"theme\":{\"primaryColor\":\"red\"}}",
                        "checkoutConfig.theme.primaryColor"),
                Arguments.of("\"checkoutConfig\":{\"theme\":{\"textColor\":\"#12345\"}}", "checkoutConfig.theme.textColor"),
                Arguments.of("\"checkoutConfig\":{\"fonts\":{\"familyURL\":\"javascript:alert(1)\"}}",
                        "checkoutConfig.fonts.familyURL"),
                Arguments.of("\"checkoutConfig\":{\"termNotice\":\"" + "x".repeat(2001) + "\"}",
                        "checkoutConfig.termNotice"),
                Arguments.of("\"allowedCrypto\":\"BTC,DOGE\"", "allowedCrypto"),
                Arguments.of("\"feeConfig\":{\"platform\":{\"collection\":\"sometimes\"}}", "feeConfig.platform.collection"),
                Arguments.of("\"feeConfig\":{\"platform\":{\"perTransaction\":{\"basisPoints\":10001}}}",
                        "feeConfig.platform.perTransaction.basisPoints"),
                Arguments.of("\"feeConfig\":{\"partner\":{\"customer\":{\"flatCents\":-1}}}",
                        "feeConfig.partner.customer.flatCents"),
                Arguments.of("\"inherit\":{\"inheritHighThreshold\":\"yes\"}", "inherit.inheritHighThreshold"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("badBodies")
    void aBadBodyIsA400NamingTheField(String fields, String field) {
        given().auth().oauth2(TestTokens.admin(account())).contentType(ContentType.JSON).body(body(fields))
                .when().post("/accounts/" + account() + "/merchants")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("validation_failed"))
                .body("errors.field", hasItem(field));
    }

    @ParameterizedTest(name = "[{index}] update {1}")
    @MethodSource("badBodies")
    void theSameBodiesAreRefusedOnUpdateAndNothingChanges(String fields, String field) {
        String id = TestAccounts.newMerchant(account(), body(""));
        given().auth().oauth2(TestTokens.admin(account())).contentType(ContentType.JSON).body(body(fields))
                .when().put("/accounts/" + account() + "/merchants/" + id)
                .then().statusCode(field.equals("externalMID") ? 200 : 400);
        given().auth().oauth2(TestTokens.admin(account())).when().get("/accounts/" + account() + "/merchants/" + id)
                .then().statusCode(200).body("name", equalTo("Shop"));
    }
}
