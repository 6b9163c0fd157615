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

    /** The billing schedule's fee and date fields (docs/merchants.md, "Account configuration"). */
    static final List<String> BILLING_FIELDS = List.of("transactionFee", "transactionFeeRate", "settlementFee",
            "authorizationFee", "complianceFee", "annualComplianceFee", "oneTimeKYCFee", "oneTimeEquipmentFee",
            "oneTimeTerminationFee", "oneTimeWeb3SecurityFee", "monthlyProcessingFee", "monthlyNonProcessingFee",
            "monthlyAPIDataFee", "monthlyDashboardFee", "monthlyEquipmentFee", "monthlyPremiumSupportFee",
            "monthlyTerminalRentalFee", "terminalLeaseFee", "web3SecurityFee", "complianceStartDate",
            "complianceEndDate", "terminalLeaseStartDate", "terminalLeaseEndDate", "web3SecurityStartDate",
            "web3SecurityEndDate");

    @Inject
    EntityManager em;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void aNewAccountAnswersEveryDocumentedFieldWithThePlatformDefaults() {
        UUID account = TestAccounts.newAccount();
        ValidatableResponse r = given().auth().oauth2(TestTokens.apiKey(account, "read_only"))
                .when().get("/accounts/" + account + "/config")
                .then().statusCode(200)
                .body("allowedCrypto", equalTo(List.of("BTC", "ETH", "USDC", "USDT")))
                .body("allowedWallets", empty()).body("allowedWalletsConfig", empty())
                .body("refundWindowHours", equalTo(720))
                .body("highThreshold", equalTo(10000))
                .body("cryptoNetworkConfigs.bitcoin.cryptoAssetConfigs.BTC.minConfirmsLow", equalTo(1))
                .body("cryptoNetworkConfigs.bitcoin.cryptoAssetConfigs.BTC.minConfirmsHigh", equalTo(3))
                .body("cryptoNetworkConfigs.base.cryptoAssetConfigs.USDC.qrExpirationSeconds", equalTo(900))
                .body("cryptoNetworkConfigs.tron.cryptoAssetConfigs.USDT.minConfirmsLow", equalTo(19))
                .body("checkoutConfig.theme.primaryColor", equalTo("#1A56DB"))
                .body("checkoutConfig.theme.backgroundColor", equalTo("#FFFFFF"))
                .body("checkoutConfig.fonts.family", equalTo("system-ui"))
                .body("checkoutConfig.flow.showApprovalPage", is(false))
                .body("checkoutConfig.logoURL", nullValue())
                .body("support.email", equalTo("ops@acme.example"))
                .body("support.link", nullValue())
                .body("settlementFrequency", equalTo("daily"))
                .body("settlementAnchor", org.hamcrest.Matchers.matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"))
                .body("autoRefundConfig.aml", is(false)).body("autoRefundConfig.overpayment", is(false))
                .body("autoRefundConfig.vendorStatus", is(false))
                .body("processingFeeConfig.basisPoints", equalTo(0))
                .body("defaultRecommendedNetwork", equalTo("bitcoin"))
                .body("addressProvider.bitcoin", org.hamcrest.Matchers.startsWith("vpub"))
                .body("subscriptionsEmailCustomerOnPaymentFailed", is(false))
                .body("subscriptionsEmailMerchantOnPaymentAttemptsExceeded", is(false))
                // No default: nothing is charged until an account manager sets the fee and billing schedules.
                .body("fees", nullValue()).body("transactionFee", nullValue())
                .body("complianceStartDate", nullValue());
        BILLING_FIELDS.forEach(f -> r.body("$", hasKey(f)));
    }

    @Test
    void aClearedFieldFallsBackToItsDefaultAndPartsOfACheckoutToo() {
        UUID account = TestAccounts.newAccount();
        String admin = TestTokens.admin(account);
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("""
                        {"refundWindowHours":48,"allowedCrypto":["USDC"],
                         "checkoutConfig":{"logoURL":"https://acme.example/logo.png","theme":{"primaryColor":"#000000"}},
                         "support":{"link":"https://acme.example/help"},
                         "cryptoNetworkConfigs":{"base":{"cryptoAssetConfigs":{"USDC":{"minConfirmsLow":2,"minConfirmsHigh":6,"qrExpirationSeconds":600}}}}}""")
                .when().put("/accounts/" + account + "/config")
                .then().statusCode(200)
                .body("refundWindowHours", equalTo(48))
                .body("allowedCrypto", equalTo(List.of("USDC")))
                .body("cryptoNetworkConfigs.keySet()", equalTo(java.util.Set.of("ethereum", "polygon", "base")))
                .body("cryptoNetworkConfigs.base.cryptoAssetConfigs.USDC.minConfirmsLow", equalTo(2))
                .body("cryptoNetworkConfigs.polygon.cryptoAssetConfigs.USDC.minConfirmsLow", equalTo(5))
                .body("checkoutConfig.logoURL", equalTo("https://acme.example/logo.png"))
                .body("checkoutConfig.theme.primaryColor", equalTo("#000000"))
                .body("checkoutConfig.theme.textColor", equalTo("#111827"))
                .body("support.email", equalTo("ops@acme.example"))
                .body("support.link", equalTo("https://acme.example/help"))
                .body("defaultRecommendedNetwork", equalTo("ethereum"));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"refundWindowHours\":null}")
                .when().put("/accounts/" + account + "/config")
                .then().statusCode(200).body("refundWindowHours", equalTo(720));
    }

    @Test
    void theEffectiveConfigurationCarriesTheDefaultsWhileTheMerchantEchoesItsStoredNulls() {
        UUID account = TestAccounts.newAccount();
        String merchant = TestAccounts.newMerchant(account, TestAccounts.MINIMAL_MERCHANT);
        given().auth().oauth2(TestTokens.admin(account)).when().get("/accounts/" + account + "/merchants/" + merchant)
                .then().statusCode(200).body("refundWindowHours", nullValue()).body("highThreshold", nullValue());
        String last = lastPublished(merchant);
        assertTrue(last.contains("\"refundWindowHours\":720"), last);
        assertTrue(last.contains("\"highThreshold\":10000"), last);
        assertTrue(last.contains("\"settlementFrequency\":\"daily\""), last);
        assertTrue(last.contains("\"overpayment\":false"), last);
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
        String last = lastPublished(merchant);
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

    /** The merchant's effective configuration as last written to the outbox for the merchants topic. */
    private String lastPublished(String merchant) {
        return QuarkusTransaction.requiringNew().call(() -> em.createNativeQuery(
                "select payload from outbox_event where topic = 'payments.merchants.v1' and message_key = ?1 "
                        + "order by seq desc limit 1").setParameter(1, merchant).getSingleResult()).toString();
    }
}
