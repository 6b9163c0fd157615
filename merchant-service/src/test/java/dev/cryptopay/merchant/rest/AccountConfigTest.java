package dev.cryptopay.merchant.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
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
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
class AccountConfigTest {

    static final String VPUB = "vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc";

    @Inject
    EntityManager em;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void aNewAccountAnswersEveryDocumentedFieldNullOrEmpty() {
        UUID account = TestAccounts.newAccount();
        ValidatableResponse r = given().auth().oauth2(TestTokens.apiKey(account, "read_only"))
                .when().get("/accounts/" + account + "/config")
                .then().statusCode(200)
                .body("allowedCrypto", empty()).body("allowedWallets", empty()).body("allowedWalletsConfig", empty())
                .body("highThreshold", nullValue()).body("settlementFrequency", nullValue());
        for (String field : List.of("checkoutConfig", "cryptoNetworkConfigs", "refundWindowHours", "support", "fees",
                "defaultRecommendedNetwork", "settlementAnchor", "addressProvider", "autoRefundConfig",
                "processingFeeConfig", "subscriptionsEmailCustomerOnPaymentFailed",
                "subscriptionsEmailMerchantOnPaymentAttemptsExceeded")) {
            r.body("$", hasKey(field));
        }
        AccountConfigFields.BILLING_FEES.forEach(f -> r.body("$", hasKey(f)));
        AccountConfigFields.BILLING_DATES.forEach(f -> r.body("$", hasKey(f)));
    }

    @Test
    void putChangesOnlyTheFieldsPresent() {
        UUID account = TestAccounts.newAccount();
        String admin = TestTokens.admin(account);
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("""
                        {"allowedCrypto":["BTC","USDC"],"highThreshold":2500.75,"refundWindowHours":48,
                         "support":{"email":"help@acme.example","link":"https://acme.example/help"},
                         "fees":{"platform":{"collection":"bill_separately","perSettlement":{"basisPoints":25,"flatCents":0}}},
                         "transactionFee":0.35,"monthlyDashboardFee":49,"complianceStartDate":"2026-01-01"}""")
                .when().put("/accounts/" + account + "/config")
                .then().statusCode(200)
                .body("allowedCrypto", equalTo(List.of("BTC", "USDC")))
                .body("highThreshold", equalTo(2500.75f))
                .body("support.email", equalTo("help@acme.example"))
                .body("fees.platform.collection", equalTo("bill_separately"))
                .body("transactionFee", equalTo(0.35f))
                .body("monthlyDashboardFee", equalTo(49))
                .body("complianceStartDate", equalTo("2026-01-01"));
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"refundWindowHours\":12,\"transactionFee\":null}")
                .when().put("/accounts/" + account + "/config")
                .then().statusCode(200)
                .body("refundWindowHours", equalTo(12))
                .body("transactionFee", nullValue())
                .body("highThreshold", equalTo(2500.75f))
                .body("allowedCrypto", equalTo(List.of("BTC", "USDC")))
                .body("monthlyDashboardFee", equalTo(49));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"settlementFrequency\":\"daily\"}|settlementFrequency",
            "{\"addressProvider\":{}}|addressProvider",
            "{\"noSuchField\":1}|noSuchField",
            "{\"allowedCrypto\":[\"DOGE\"]}|allowedCrypto",
            "{\"highThreshold\":-5}|highThreshold",
            "{\"transactionFee\":\"cheap\"}|transactionFee",
            "{\"complianceEndDate\":\"31/12/2026\"}|complianceEndDate",
            "{\"support\":{\"email\":\"nope\"}}|support.email",
            "{\"support\":{\"link\":\"mailto:x@y.z\"}}|support.link",
            "{\"refundWindowHours\":2.5}|refundWindowHours",
            "[1,2]|body" })
    void badOrReadOnlyFieldsAreRefusedByName(String body, String field) {
        UUID account = TestAccounts.newAccount();
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body(body)
                .when().put("/accounts/" + account + "/config")
                .then().statusCode(400).body("errors.field", hasItem(field));
    }

    @Test
    void theOperatorSetsTheReadOnlyFieldsAndChecksXpubs() {
        UUID account = TestAccounts.newAccount();
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("""
                        {"addressProvider":{"bitcoin":"%s"},"settlementFrequency":"weekly",
                         "settlementAnchor":"2026-01-05T00:00:00Z","defaultRecommendedNetwork":"base",
                         "autoRefundConfig":{"overpayment":true},"processingFeeConfig":{"basisPoints":30,"flatCents":5},
                         "subscriptionsEmailCustomerOnPaymentFailed":true}""".formatted(VPUB))
                .when().put("/operator/accounts/" + account)
                .then().statusCode(200)
                .body("addressProvider.bitcoin", equalTo(VPUB))
                .body("settlementFrequency", equalTo("weekly"))
                .body("autoRefundConfig.overpayment", is(true))
                .body("subscriptionsEmailCustomerOnPaymentFailed", is(true));
        given().auth().oauth2(TestTokens.admin(account)).when().get("/accounts/" + account + "/config")
                .then().statusCode(200).body("settlementFrequency", equalTo("weekly"));

        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"addressProvider\":{\"bitcoin\":\"xpub-garbage\",\"ethereum\":"
                        + "\"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi\"},"
                        + "\"settlementFrequency\":\"fortnightly\",\"highThreshold\":5}")
                .when().put("/operator/accounts/" + account)
                .then().statusCode(400)
                .body("errors.field", hasItem("addressProvider.bitcoin"))
                .body("errors.field", hasItem("addressProvider.ethereum"))
                .body("errors.field", hasItem("settlementFrequency"))
                .body("errors.field", hasItem("highThreshold"));
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON).body("{}")
                .when().put("/operator/accounts/" + account)
                .then().statusCode(403);
    }

    @Test
    void anInheritedAccountChangeRepublishesTheMerchantWithTheNewValue() {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT
                .replace("}", ",\"highThreshold\":100,\"inherit\":{\"inheritRefundWindowHours\":true}}"));
        given().auth().oauth2(TestTokens.admin(account)).contentType(ContentType.JSON)
                .body("{\"refundWindowHours\":96,\"highThreshold\":7000}")
                .when().put("/accounts/" + account + "/config")
                .then().statusCode(200);
        String last = QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select payload from outbox_event where topic = 'payments.merchants.v1' and message_key = ?1 "
                        + "order by seq desc limit 1").setParameter(1, merchant).getSingleResult()).toString();
        assertTrue(last.contains("\"refundWindowHours\":96"), "inherited: " + last);
        assertTrue(last.contains("\"highThreshold\":100"), "the merchant's own value holds: " + last);
    }

    @Test
    void theOperatorEnablesDisablesAndGrantsFxRate() {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"status\":-1,\"fxRateAllowed\":true}")
                .when().put("/operator/accounts/" + account + "/merchants/" + merchant)
                .then().statusCode(200).body("status", equalTo(-1)).body("fxRateAllowed", is(true));
        given().auth().oauth2(TestTokens.admin(account)).when().get("/accounts/" + account + "/merchants/" + merchant)
                .then().statusCode(200).body("status", equalTo(-1));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{\"status\":7}")
                .when().put("/operator/accounts/" + account + "/merchants/" + merchant)
                .then().statusCode(400).body("errors.field", hasItem("status"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{\"status\":1}")
                .when().put("/operator/accounts/" + account + "/merchants/" + UUID.randomUUID())
                .then().statusCode(404);
    }
}
