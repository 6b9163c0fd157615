package dev.cryptopay.merchant.rest;

import static dev.cryptopay.merchant.rest.TestAccounts.MINIMAL_MERCHANT;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MerchantResourceTest {

    static final String FULL_MERCHANT = """
            {
              "name": "Blue Bottle Roasters", "dba": "Blue Bottle", "address1": "300 Webster St",
              "address2": "Unit 4", "city": "Oakland", "region": "CA", "country": "US",
              "merchantDiscountRate": {"percentage": 0.025, "flatRate": 0.30, "flatRateCurrency": "USD"},
              "externalMID": "ext-%s", "highThreshold": 10000, "kycEnabled": true, "kycThreshold": 3000.50,
              "kycThresholdCustodial": 5000, "refundWindowHours": 72,
              "allowedWallets": ["MetaMask", "Coinbase Wallet"],
              "allowedWalletsConfig": [{"name": "MetaMask", "isFeatured": true, "featuredNote": "Fast", "order": 1}],
              "cryptoNetworkConfigs": {"ethereum": {"cryptoAssetConfigs": {"USDC":
                  {"minConfirmsLow": 3, "minConfirmsHigh": 12, "qrExpirationSeconds": 600}}}},
              "travelRulesRegionalThreshold": {"US": 3000},
              "travelRulesRegionalThresholdCustodial": {"US": 1000},
              "checkoutConfig": {"logoURL": "https://cdn.example/logo.png", "termNotice": "Terms apply",
                  "theme": {"primaryColor": "#112233", "accentColor": "#abc", "backgroundColor": "#FFFFFF",
                            "textColor": "#000000"},
                  "fonts": {"family": "Inter", "familyURL": "https://fonts.example/inter.css"},
                  "flow": {"hideNoWalletOption": false, "showApprovalPage": true, "skipConfirmationPage": false}},
              "inherit": {"inheritHighThreshold": false, "inheritPartnerFees": true},
              "canSet": {"canSetKYCEnabled": true}
            }""";

    @Inject
    EntityManager em;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void createAnswersTheFullMerchantWithDocumentedNamesAndTypes() {
        UUID account = TestAccounts.newAccount();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        ValidatableResponse created = given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body(FULL_MERCHANT.formatted(suffix))
                .when().post("/accounts/" + account + "/merchants")
                .then().statusCode(201);
        assertFullShape(created, account, suffix);
        created.body("status", equalTo(1)) // sandbox: enabled at once
                .body("descriptor", equalTo("Blue Bottle"))
                .body("merchantDiscountRate.Percentage", equalTo(0.025f))
                .body("merchantDiscountRate.FlatRate", equalTo(0.30f))
                .body("merchantDiscountRate.FlatRateCurrency", equalTo("USD"))
                .body("kycThreshold", equalTo(3000.50f))
                .body("cryptoNetworkConfigs.ethereum.cryptoAssetConfigs.USDC.minConfirmsHigh", equalTo(12))
                .body("checkoutConfig.theme.accentColor", equalTo("#abc"))
                .body("allowedWalletsConfig[0].isFeatured", is(true))
                .body("logoFilename", nullValue())
                .body("allowedCrypto", empty());
    }

    static void assertFullShape(ValidatableResponse r, UUID account, String suffix) {
        r.body("UUID", instanceOf(String.class))
                .body("createdAt", instanceOf(String.class))
                .body("updatedAt", instanceOf(String.class))
                .body("name", equalTo("Blue Bottle Roasters"))
                .body("dba", equalTo("Blue Bottle"))
                .body("address1", equalTo("300 Webster St"))
                .body("address2", equalTo("Unit 4"))
                .body("city", equalTo("Oakland"))
                .body("region", equalTo("CA"))
                .body("country", equalTo("US"))
                .body("status", instanceOf(Integer.class))
                .body("accountID", equalTo(account.toString()))
                .body("externalMID", equalTo("ext-" + suffix))
                .body("merchantDiscountRate", instanceOf(Map.class))
                .body("allowedWallets", equalTo(List.of("MetaMask", "Coinbase Wallet")))
                .body("allowedWalletsConfig", instanceOf(List.class))
                .body("checkoutConfig", instanceOf(Map.class))
                .body("cryptoNetworkConfigs", instanceOf(Map.class))
                .body("inherit.inheritPartnerFees", is(true))
                .body("canSet.canSetKYCEnabled", is(true))
                .body("kycEnabled", is(true))
                .body("highThreshold", equalTo(10000))
                .body("refundWindowHours", equalTo(72))
                .body("travelRulesRegionalThreshold.US", equalTo(3000))
                .body("travelRulesRegionalThresholdCustodial.US", equalTo(1000))
                .body("$", org.hamcrest.Matchers.hasKey("feeConfig"))
                .body("$", org.hamcrest.Matchers.hasKey("logoFilename"))
                .body("$", org.hamcrest.Matchers.hasKey("kycThresholdCustodial"));
    }

    @Test
    void updateReplacesTheBodyAndTakesAllowedCryptoAsACommaSeparatedString() {
        UUID account = TestAccounts.newAccount();
        String id = TestAccounts.newMerchant(account, FULL_MERCHANT.formatted(UUID.randomUUID().toString().substring(0, 8)));
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("""
                        {"name":"Renamed","address1":"2 Side St","city":"Paris","region":"IDF","country":"FR",
                         "allowedCrypto":"BTC, USDC ,BTC","cancelTransactionEnabled":true,
                         "externalMID":"ignored-on-update",
                         "feeConfig":{"platform":{"collection":"deduct","perTransaction":{"basisPoints":50,"flatCents":10}},
                                      "partner":{"customer":{"basisPoints":100,"flatCents":0}}}}""")
                .when().put("/accounts/" + account + "/merchants/" + id)
                .then().statusCode(200)
                .body("name", equalTo("Renamed"))
                .body("dba", nullValue())
                .body("descriptor", equalTo("Renamed"))
                .body("country", equalTo("FR"))
                .body("allowedCrypto", equalTo(List.of("BTC", "USDC")))
                .body("cancelTransactionEnabled", is(true))
                .body("externalMID", not(equalTo("ignored-on-update")))
                .body("kycEnabled", nullValue())
                .body("allowedWallets", empty())
                .body("feeConfig.platform.collection", equalTo("deduct"))
                .body("feeConfig.partner.customer.basisPoints", equalTo(100));
        given().auth().oauth2(TestTokens.apiKey(account, "read_only"))
                .when().get("/accounts/" + account + "/merchants/" + id)
                .then().statusCode(200).body("name", equalTo("Renamed"));
    }

    @Test
    void listsNewestFirstWithPaginationMetadataRightAtTheEdges() {
        UUID account = TestAccounts.newAccount();
        for (int i = 0; i < 3; i++) {
            TestAccounts.newMerchant(account, MINIMAL_MERCHANT.replace("Corner Shop", "Shop " + i));
        }
        String admin = TestTokens.admin(account);
        given().auth().oauth2(admin).when().get("/accounts/" + account + "/merchants")
                .then().statusCode(200)
                .body("merchants", hasSize(3))
                .body("merchants[0].name", equalTo("Shop 2"))
                .body("metadata.totalCount", equalTo(3))
                .body("metadata.count", equalTo(3))
                .body("metadata.page", equalTo(1))
                .body("metadata.pageSize", equalTo(20));
        given().auth().oauth2(admin).queryParam("limit", 2).queryParam("page", 2)
                .when().get("/accounts/" + account + "/merchants")
                .then().statusCode(200)
                .body("merchants", hasSize(1))
                .body("merchants[0].name", equalTo("Shop 0"))
                .body("metadata.count", equalTo(1))
                .body("metadata.page", equalTo(2))
                .body("metadata.pageSize", equalTo(2));
        given().auth().oauth2(admin).queryParam("limit", 1000)
                .when().get("/accounts/" + account + "/merchants")
                .then().statusCode(200).body("metadata.pageSize", equalTo(100));
        given().auth().oauth2(admin).queryParam("page", 9)
                .when().get("/accounts/" + account + "/merchants")
                .then().statusCode(200).body("merchants", empty())
                .body("metadata.totalCount", equalTo(3)).body("metadata.count", equalTo(0));
        given().auth().oauth2(admin).queryParam("limit", 0)
                .when().get("/accounts/" + account + "/merchants")
                .then().statusCode(400).body("errors.field", hasItem("limit"));
        given().auth().oauth2(admin).queryParam("page", 0)
                .when().get("/accounts/" + account + "/merchants")
                .then().statusCode(400).body("errors.field", hasItem("page"));
    }

    @Test
    void archivingLeavesListingsButGetStillAnswers() {
        UUID account = TestAccounts.newAccount();
        String id = TestAccounts.newMerchant(account, MINIMAL_MERCHANT);
        String admin = TestTokens.admin(account);
        given().auth().oauth2(admin).when().delete("/accounts/" + account + "/merchants/" + id)
                .then().statusCode(204);
        given().auth().oauth2(admin).when().get("/accounts/" + account + "/merchants")
                .then().statusCode(200).body("merchants", empty()).body("metadata.totalCount", equalTo(0));
        given().auth().oauth2(admin).when().get("/accounts/" + account + "/merchants/" + id)
                .then().statusCode(200).body("status", equalTo(-1));
        given().auth().oauth2(admin).when().delete("/accounts/" + account + "/merchants/" + id)
                .then().statusCode(204);
    }

    @Test
    void anExternalMidNamesOneMerchantPerAccount() {
        UUID account = TestAccounts.newAccount();
        String body = MINIMAL_MERCHANT.replace("}", ",\"externalMID\":\"shop-1\"}");
        TestAccounts.newMerchant(account, body);
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body(body)
                .when().post("/accounts/" + account + "/merchants")
                .then().statusCode(409).body("code", equalTo("external_mid_taken"));
        TestAccounts.newMerchant(TestAccounts.newAccount(), body);
    }

    @Test
    void anotherAccountSeesNothing() {
        UUID account = TestAccounts.newAccount();
        UUID other = TestAccounts.newAccount();
        String id = TestAccounts.newMerchant(account, MINIMAL_MERCHANT);
        given().auth().oauth2(TestTokens.admin(other)).when().get("/accounts/" + account + "/merchants/" + id)
                .then().statusCode(403);
        given().auth().oauth2(TestTokens.admin(other)).when().get("/accounts/" + other + "/merchants/" + id)
                .then().statusCode(404).body("code", equalTo("not_found"));
        given().auth().oauth2(TestTokens.admin(other)).contentType(ContentType.JSON).body(MINIMAL_MERCHANT)
                .when().put("/accounts/" + other + "/merchants/" + id)
                .then().statusCode(404);
        given().auth().oauth2(TestTokens.admin(other)).when().delete("/accounts/" + other + "/merchants/" + id)
                .then().statusCode(404);
        given().auth().oauth2(TestTokens.apiKey(account, "read_only")).contentType(ContentType.JSON)
                .body(MINIMAL_MERCHANT).when().post("/accounts/" + account + "/merchants")
                .then().statusCode(403);
    }

    @Test
    void everyChangePublishesTheEffectiveConfiguration() {
        UUID account = TestAccounts.newAccount();
        String id = TestAccounts.newMerchant(account, MINIMAL_MERCHANT);
        given().auth().oauth2(TestTokens.admin(account)).when().delete("/accounts/" + account + "/merchants/" + id)
                .then().statusCode(204);
        List<?> events = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select payload from outbox_event where topic = 'payments.merchants.v1' and message_key = ?1 "
                        + "order by seq").setParameter(1, id).getResultList());
        assertEquals(2, events.size());
        String last = events.get(1).toString();
        assertTrue(last.contains("\"type\":\"merchant.updated\""), last);
        assertTrue(last.contains("\"status\":-1"), last);
        assertTrue(last.contains("\"xpubs\":{"), "sandbox default xpubs are part of it: " + last);
    }
}
