package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.apiKey;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.get;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
class TransactionCreationTest {

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @Test
    void creationAnswersEveryFieldOfTheCreationResultWithItsType() {
        Fixtures.rate("EUR", "1.08", null);
        Fixtures.rate("BTC", "50000", null);
        MerchantConfiguration m = merchant(c -> c.customerFee("100", "50").qrExpirationSeconds(600));
        Instant before = Instant.now();
        JsonNode created = create(publishable(m), """
                {"amount":100.00,"amountCurrency":"EUR","asset":"BTC","network":"bitcoin",
                 "referenceNumber":"order-1","descriptor":"Coffee","quoteID":"q-1"}""");

        expectTypes(created, Map.ofEntries(
                Map.entry("transactionId", JsonNodeType.STRING), Map.entry("qrData", JsonNodeType.STRING),
                Map.entry("address", JsonNodeType.STRING), Map.entry("assetAmount", JsonNodeType.STRING),
                Map.entry("additionalCustomerFee", JsonNodeType.NUMBER), Map.entry("cryptoFXRate", JsonNodeType.NUMBER),
                Map.entry("paymentRequestId", JsonNodeType.STRING), Map.entry("quoteID", JsonNodeType.STRING),
                Map.entry("status", JsonNodeType.NUMBER), Map.entry("requiredFields", JsonNodeType.ARRAY),
                Map.entry("supportedDocumentTypes", JsonNodeType.ARRAY)));
        assertEquals(11, created.size(), created.toString());
        // 100.00 EUR × 1.08 = 108.00 USD; fee 1 % + 50 cents = 1.58; (108.00 + 1.58) ÷ 50 000 = 0.0021916 BTC
        assertEquals("0.00219160", created.get("assetAmount").asText());
        assertEquals(new BigDecimal("1.58"), created.get("additionalCustomerFee").decimalValue());
        assertEquals(0, new BigDecimal("50000").compareTo(created.get("cryptoFXRate").decimalValue()));
        assertEquals(0, created.get("status").asInt());
        assertEquals("q-1", created.get("quoteID").asText());
        assertTrue(created.get("address").asText().startsWith("tb1q"), created.toString());
        assertEquals("bitcoin:" + created.get("address").asText() + "?amount=0.0021916",
                created.get("qrData").asText());
        assertEquals(0, created.get("requiredFields").size());
        assertEquals(0, created.get("supportedDocumentTypes").size());

        JsonNode tx = get(publishable(m), created.get("transactionId").asText());
        expectTypes(tx, Map.ofEntries(
                Map.entry("transactionID", JsonNodeType.STRING), Map.entry("accountID", JsonNodeType.STRING),
                Map.entry("merchantID", JsonNodeType.STRING), Map.entry("externalMID", JsonNodeType.NULL),
                Map.entry("descriptor", JsonNodeType.STRING), Map.entry("referenceNumber", JsonNodeType.STRING),
                Map.entry("quoteID", JsonNodeType.STRING), Map.entry("status", JsonNodeType.NUMBER),
                Map.entry("paymentStatus", JsonNodeType.NUMBER), Map.entry("amounts", JsonNodeType.OBJECT),
                Map.entry("compliance", JsonNodeType.OBJECT), Map.entry("payments", JsonNodeType.ARRAY),
                Map.entry("refunds", JsonNodeType.ARRAY), Map.entry("remainingLocal", JsonNodeType.NUMBER),
                Map.entry("remainingUSD", JsonNodeType.NUMBER), Map.entry("cancellationReason", JsonNodeType.NULL),
                Map.entry("createdAt", JsonNodeType.STRING), Map.entry("updatedAt", JsonNodeType.STRING),
                Map.entry("expiration", JsonNodeType.STRING), Map.entry("version", JsonNodeType.NUMBER),
                Map.entry("merchantFees", JsonNodeType.NULL)));
        assertEquals(21, tx.size());
        assertEquals(1, tx.get("version").asInt(), "one event (transaction.created) so far");
        assertEquals(created.get("transactionId").asText(), tx.get("transactionID").asText());
        assertEquals(m.accountId(), tx.get("accountID").asText());
        assertEquals(m.merchantId(), tx.get("merchantID").asText());
        assertEquals("Coffee", tx.get("descriptor").asText());
        assertEquals("order-1", tx.get("referenceNumber").asText());
        assertEquals(0, tx.get("paymentStatus").asInt());

        JsonNode amounts = tx.get("amounts");
        expectTypes(amounts, Map.of("currency", JsonNodeType.STRING, "totalLocal", JsonNodeType.NUMBER,
                "totalUSD", JsonNodeType.NUMBER, "receivedUSD", JsonNodeType.NUMBER,
                "customerFeeUSD", JsonNodeType.NUMBER, "fxRateToUSD", JsonNodeType.NUMBER));
        assertEquals("EUR", amounts.get("currency").asText());
        assertEquals(new BigDecimal("100.00"), amounts.get("totalLocal").decimalValue());
        assertEquals(new BigDecimal("108.00"), amounts.get("totalUSD").decimalValue());
        assertEquals(new BigDecimal("0.00"), amounts.get("receivedUSD").decimalValue());
        assertEquals(new BigDecimal("1.58"), amounts.get("customerFeeUSD").decimalValue());
        assertEquals(0, new BigDecimal("1.08").compareTo(amounts.get("fxRateToUSD").decimalValue()));
        // Still owed: the order total plus the customer fee (108.00 + 1.58), in EUR rounded up (109.58 / 1.08).
        assertEquals(new BigDecimal("109.58"), tx.get("remainingUSD").decimalValue());
        assertEquals(new BigDecimal("101.47"), tx.get("remainingLocal").decimalValue());

        // the publishable key's view: no personal data, no compliance logs (docs/decisions.md §11); an API key sees the logs
        JsonNode compliance = tx.get("compliance");
        expectTypes(compliance, Map.of("kycTriggered", JsonNodeType.BOOLEAN, "travelRuleTriggered",
                JsonNodeType.BOOLEAN, "kycDetails", JsonNodeType.NULL, "resolutionLogs", JsonNodeType.NULL,
                "strFilingReference", JsonNodeType.NULL, "heldForReview", JsonNodeType.NULL));
        expectTypes(get(Fixtures.apiKey(m), created.get("transactionId").asText()).get("compliance"),
                Map.of("kycTriggered", JsonNodeType.BOOLEAN, "travelRuleTriggered", JsonNodeType.BOOLEAN,
                        "kycDetails", JsonNodeType.NULL, "resolutionLogs", JsonNodeType.ARRAY,
                        "strFilingReference", JsonNodeType.NULL, "heldForReview", JsonNodeType.BOOLEAN));

        assertEquals(1, tx.get("payments").size());
        JsonNode payment = tx.get("payments").get(0);
        expectTypes(payment, Map.ofEntries(
                Map.entry("paymentRequestID", JsonNodeType.STRING), Map.entry("cryptoAsset", JsonNodeType.STRING),
                Map.entry("cryptoNetwork", JsonNodeType.STRING), Map.entry("address", JsonNodeType.STRING),
                Map.entry("expectedCrypto", JsonNodeType.NUMBER), Map.entry("receivedCrypto", JsonNodeType.NUMBER),
                Map.entry("expectedUSD", JsonNodeType.NUMBER), Map.entry("receivedUSD", JsonNodeType.NUMBER),
                Map.entry("txnHash", JsonNodeType.NULL), Map.entry("confirmationCount", JsonNodeType.NUMBER),
                Map.entry("gasFee", JsonNodeType.NULL), Map.entry("status", JsonNodeType.NUMBER),
                Map.entry("qrData", JsonNodeType.STRING), Map.entry("expiration", JsonNodeType.STRING),
                Map.entry("cryptoFXRate", JsonNodeType.NUMBER)));
        assertEquals(created.get("paymentRequestId").asText(), payment.get("paymentRequestID").asText());
        assertEquals(created.get("address").asText(), payment.get("address").asText());
        assertEquals(new BigDecimal("0.00219160"), payment.get("expectedCrypto").decimalValue());
        assertEquals(new BigDecimal("109.58"), payment.get("expectedUSD").decimalValue());
        assertEquals("BTC", payment.get("cryptoAsset").asText());
        assertEquals("bitcoin", payment.get("cryptoNetwork").asText());
        assertEquals(0, payment.get("status").asInt());

        // the expiration is the QR lifetime of BTC on bitcoin (600 s here) for both
        Instant expiration = Instant.parse(tx.get("expiration").asText());
        assertEquals(expiration, Instant.parse(payment.get("expiration").asText()));
        long lifetime = Duration.between(before, expiration).toSeconds();
        assertTrue(lifetime >= 595 && lifetime <= 605, "lifetime " + lifetime);
    }

    /**
     * The creation's body is read on the event loop as it arrives (§100): a body larger than the read buffer, or one
     * that arrives in pieces with a pause between them, is read whole before the creation runs.
     */
    @Test
    void aLargeBodyOrOneThatArrivesInPiecesIsReadWhole() {
        MerchantConfiguration m = merchant(c -> c);
        String padded = "{\"amount\":12.5," + " ".repeat(100_000) + "\"amountCurrency\":\"USD\",\"asset\":\"BTC\","
                + "\"network\":\"bitcoin\",\"referenceNumber\":\"padded-1\"}";
        JsonNode large = create(publishable(m), padded);
        assertEquals("padded-1", get(publishable(m), large.get("transactionId").asText()).get("referenceNumber")
                .asText());

        String whole = "{\"amount\":12.5,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\","
                + "\"referenceNumber\":\"pieces-1\"}";
        int half = whole.length() / 2;
        InputStream pieces = new SequenceInputStream(
                new ByteArrayInputStream(whole.substring(0, half).getBytes(StandardCharsets.UTF_8)),
                new InputStream() {
                    private final InputStream rest = new ByteArrayInputStream(
                            whole.substring(half).getBytes(StandardCharsets.UTF_8));
                    private boolean paused;

                    @Override
                    public int read() throws IOException {
                        if (!paused) {
                            paused = true;
                            try {
                                Thread.sleep(300);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        return rest.read();
                    }
                });
        String id = publishable(m).contentType(ContentType.JSON).body(pieces).when().post("/transaction").then()
                .statusCode(201).extract().path("transactionId");
        assertEquals("pieces-1", get(publishable(m), id).get("referenceNumber").asText());
    }

    @Test
    void anApiKeyWithXMidCreatesAndReadsByUuidOrExternalMid() {
        MerchantConfiguration m = merchant(c -> c.externalMID("till-" + UUID.randomUUID()));
        UUID account = UUID.fromString(m.accountId());
        JsonNode byUuid = create(apiKey(m), body("25", "USD", "USDC", "polygon"));
        assertTrue(byUuid.get("address").asText().matches("0x[0-9a-fA-F]{40}"));
        assertTrue(byUuid.get("qrData").asText().startsWith("ethereum:0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582@80002/transfer?address="
                + byUuid.get("address").asText() + "&uint256=25000000"), byUuid.toString());

        JsonNode byExternal = create(apiKey(account, IdentityClaims.ROLE_ADMIN, m.externalMID()),
                body("10", "USD", "ETH", "base"));
        JsonNode tx = get(apiKey(account, IdentityClaims.ROLE_READ_ONLY, m.externalMID()),
                byExternal.get("transactionId").asText());
        assertEquals(m.merchantId(), tx.get("merchantID").asText());
        assertEquals(m.externalMID(), tx.get("externalMID").asText());

        // the publishable key of the same merchant reads it too; another merchant's X-MID does not see it
        get(publishable(m), byUuid.get("transactionId").asText());
        MerchantConfiguration sibling = merchant(c -> c.accountId(account));
        apiKey(sibling).when().get("/transaction/" + byUuid.get("transactionId").asText())
                .then().statusCode(404).contentType("application/problem+json");
        // an unknown X-MID is 404
        apiKey(account, IdentityClaims.ROLE_ADMIN, "no-such-till").contentType(ContentType.JSON)
                .body(body("10", "USD", "ETH", "base")).when().post("/transaction")
                .then().statusCode(404).body("code", equalTo("not_found"));
        // another account's merchant is unknown too
        apiKey(UUID.randomUUID(), IdentityClaims.ROLE_ADMIN, m.merchantId()).contentType(ContentType.JSON)
                .body(body("10", "USD", "ETH", "base")).when().post("/transaction").then().statusCode(404);
    }

    @Test
    void aMerchantTheGatewayResolvedIsTrustedAndOneNotYetInTheViewIsRetried() {
        MerchantConfiguration m = merchant(c -> c.externalMID("resolved-" + UUID.randomUUID()));
        UUID account = UUID.fromString(m.accountId());
        JsonNode created = create(Fixtures.apiKeyResolved(account, m.merchantId(), m.externalMID()),
                body("10", "USD", "USDC", "base"));
        assertEquals(m.merchantId(), get(apiKey(m), created.get("transactionId").asText()).get("merchantID").asText());
        // the gateway already knows a merchant that the merchants topic has not delivered here yet
        Fixtures.apiKeyResolved(account, UUID.randomUUID().toString(), "brand-new").contentType(ContentType.JSON)
                .body(body("10", "USD", "USDC", "base")).when().post("/transaction")
                .then().statusCode(503).header("Retry-After", equalTo("1")).contentType("application/problem+json");
        // a sub-merchant resolved by the gateway to the key's own merchant
        JsonNode sub = create(publishable(account, m.merchantId(), m.externalMID()), body("10", "USD", "USDC", "base"));
        assertEquals(0, sub.get("status").asInt());
    }

    @Test
    void xMidWrittenAsTheResolvedMerchantsOwnIdScopesToItAndAnotherMerchantsIdStillDoesNot() {
        MerchantConfiguration m = merchant(c -> c.externalMID("own-id-" + UUID.randomUUID()));
        UUID account = UUID.fromString(m.accountId());
        MerchantConfiguration sibling = merchant(c -> c.accountId(account));
        JsonNode created = create(Fixtures.apiKeyResolved(account, m.merchantId(), m.merchantId().toUpperCase()),
                body("10", "USD", "USDC", "base"));
        String id = created.get("transactionId").asText();
        assertEquals(m.merchantId(), get(Fixtures.apiKeyResolved(account, m.merchantId(), m.merchantId()), id)
                .get("merchantID").asText());
        // a key scoped to the merchant that names its sibling by id is refused, as before
        Fixtures.apiKeyResolved(account, m.merchantId(), sibling.merchantId()).when().get("/transaction/" + id)
                .then().statusCode(403).contentType("application/problem+json");
        // and the sibling's own id scopes to the sibling, which does not see the merchant's transaction
        Fixtures.apiKeyResolved(account, sibling.merchantId(), sibling.merchantId()).when().get("/transaction/" + id)
                .then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void xMidWrittenAsAnExternalMidFollowsTheNameWhenItMovesToAnotherMerchant() {
        String name = "moving-" + UUID.randomUUID();
        MerchantConfiguration m = merchant(c -> c.externalMID(name));
        UUID account = UUID.fromString(m.accountId());
        UUID merchantId = UUID.fromString(m.merchantId());
        MerchantConfiguration sibling = merchant(c -> c.accountId(account).externalMID("sibling-" + UUID.randomUUID()));
        String id = create(Fixtures.apiKeyResolved(account, m.merchantId(), name), body("10", "USD", "USDC", "base"))
                .get("transactionId").asText();
        for (int read = 0; read < 3; read++) { // the name's merchant is kept for a second; the answer is the same
            assertEquals(m.merchantId(), get(Fixtures.apiKeyResolved(account, m.merchantId(), name), id)
                    .get("merchantID").asText());
        }
        // a key scoped to the merchant that names its sibling by externalMID is refused
        Fixtures.apiKeyResolved(account, m.merchantId(), sibling.externalMID()).when().get("/transaction/" + id)
                .then().statusCode(403).contentType("application/problem+json");

        // the name moves to the sibling: the view changes on this replica, and the very next request sees it
        merchant(c -> c.merchantId(merchantId).accountId(account).externalMID("renamed-" + UUID.randomUUID())
                .version(2));
        merchant(c -> c.merchantId(UUID.fromString(sibling.merchantId())).accountId(account).externalMID(name)
                .version(2));
        Fixtures.apiKeyResolved(account, m.merchantId(), name).when().get("/transaction/" + id)
                .then().statusCode(403).contentType("application/problem+json");
        Fixtures.apiKeyResolved(account, sibling.merchantId(), name).when().get("/transaction/" + id)
                .then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void subMerchantPublishableKeysResolveByUuidOrExternalMid() {
        UUID account = UUID.randomUUID();
        MerchantConfiguration m = merchant(c -> c.accountId(account).externalMID("sub-7"));
        JsonNode byExternal = create(publishable(account, null, "sub-7"), body("12.5", "USD", "USDT", "tron"));
        assertTrue(byExternal.get("address").asText().startsWith("T"));
        assertEquals("tron:" + byExternal.get("address").asText()
                + "?contract=TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf&amount=12.5", byExternal.get("qrData").asText());
        JsonNode byUuid = create(publishable(account, null, m.merchantId()), body("1", "USD", "USDC", "ethereum"));
        assertEquals(m.merchantId(), get(publishable(account, null, null), byUuid.get("transactionId").asText())
                .get("merchantID").asText());

        publishable(account, null, "unknown-sub").contentType(ContentType.JSON).body(body("1", "USD", "USDC", "ethereum"))
                .when().post("/transaction").then().statusCode(401).body("code", equalTo("unauthorized"));
        // a key scoped to one merchant naming another as sub-merchant
        MerchantConfiguration other = merchant(c -> c.accountId(account));
        publishable(account, other.merchantId(), "sub-7").contentType(ContentType.JSON)
                .body(body("1", "USD", "USDC", "ethereum")).when().post("/transaction")
                .then().statusCode(403).body("code", equalTo("forbidden"));
        // an account-wide publishable key without a sub-merchant cannot create
        publishable(account, null, null).contentType(ContentType.JSON).body(body("1", "USD", "USDC", "ethereum"))
                .when().post("/transaction").then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("merchant_required"));
        // a scoped key reads its merchant's transactions only
        publishable(account, other.merchantId(), null).when().get("/transaction/" + byUuid.get("transactionId").asText())
                .then().statusCode(404);
    }

    @Test
    void merchantsThatAreNotEnabledTakeNoTransactions() {
        MerchantConfiguration underReview = merchant(c -> c.status(MerchantConfiguration.UNDER_REVIEW));
        publishable(underReview).contentType(ContentType.JSON).body(body("10", "USD", "BTC", "bitcoin"))
                .when().post("/transaction").then().statusCode(409).body("code", equalTo("merchant_not_enabled"));
        MerchantConfiguration archived = merchant(c -> c.status(MerchantConfiguration.DISABLED));
        apiKey(archived).contentType(ContentType.JSON).body(body("10", "USD", "BTC", "bitcoin"))
                .when().post("/transaction").then().statusCode(409).contentType("application/problem+json");
    }

    @Test
    void assetsTheMerchantDoesNotAcceptAreRefusedNamingTheField() {
        MerchantConfiguration m = merchant(c -> c.allowedCrypto("BTC", "USDC"));
        publishable(m).contentType(ContentType.JSON).body(body("10", "USD", "ETH", "ethereum"))
                .when().post("/transaction").then().statusCode(400)
                .body("code", equalTo("validation_failed")).body("errors.field", equalTo(List.of("asset")));
        publishable(m).contentType(ContentType.JSON).body(body("10", "USD", "USDC", "tron"))
                .when().post("/transaction").then().statusCode(400).body("errors.field", equalTo(List.of("network")));
        publishable(m).contentType(ContentType.JSON).body(body("10", "USD", "USDC", "polygon"))
                .when().post("/transaction").then().statusCode(201);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "{\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amount",
            "{\"amount\":0,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amount",
            "{\"amount\":-5,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amount",
            "{\"amount\":1000000000000.01,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amount",
            "{\"amount\":10.123,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amount",
            "{\"amount\":10.5,\"amountCurrency\":\"JPY\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amount",
            "{\"amount\":\"ten\",\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amount",
            "{\"amount\":10,\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amountCurrency",
            "{\"amount\":10,\"amountCurrency\":\"EURO\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amountCurrency",
            "{\"amount\":10,\"amountCurrency\":\"XAF\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}| amountCurrency",
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"network\":\"bitcoin\"}| asset",
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"DOGE\",\"network\":\"bitcoin\"}| asset",
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"BTC\"}| network",
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"solana\"}| network",
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"ethereum\"}| network",
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\",\"fxRate\":0}| fxRate",
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\",\"optional\":{\"email\":\"nope\"}}| optional.email",
            "{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\",\"optional\":{\"country\":\"XX\"}}| optional.country",
    })
    void invalidFieldsAreNamed(String json, String field) {
        MerchantConfiguration m = merchant(c -> c);
        apiKey(m).contentType(ContentType.JSON).body(json).when().post("/transaction")
                .then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("validation_failed")).body("errors.field", hasItem(field));
    }

    @Test
    void longTextsAreRefused() {
        MerchantConfiguration m = merchant(c -> c);
        String longText = "x".repeat(256);
        apiKey(m).contentType(ContentType.JSON)
                .body("{\"amount\":10,\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\","
                        + "\"referenceNumber\":\"" + longText + "\",\"descriptor\":\"" + longText + "\"}")
                .when().post("/transaction").then().statusCode(400)
                .body("errors.field", equalTo(List.of("descriptor", "referenceNumber")));
        apiKey(m).contentType(ContentType.JSON).body("{not json").when().post("/transaction")
                .then().statusCode(400).contentType("application/problem+json");
    }

    @Test
    void fxRateNeedsAnApiKeyAndTheMerchantsPermission() {
        Fixtures.rate("USDC", "1", null);
        MerchantConfiguration plain = merchant(c -> c);
        String withRate = "{\"amount\":100,\"amountCurrency\":\"EUR\",\"asset\":\"USDC\",\"network\":\"base\",\"fxRate\":1.25}";
        apiKey(plain).contentType(ContentType.JSON).body(withRate).when().post("/transaction")
                .then().statusCode(403).body("code", equalTo("forbidden"));
        MerchantConfiguration allowed = merchant(c -> c.fxRateAllowed(true));
        publishable(allowed).contentType(ContentType.JSON).body(withRate).when().post("/transaction")
                .then().statusCode(403);
        JsonNode created = create(apiKey(allowed), withRate);
        assertEquals("125.000000", created.get("assetAmount").asText());
        JsonNode amounts = get(apiKey(allowed), created.get("transactionId").asText()).get("amounts");
        assertEquals(0, new BigDecimal("1.25").compareTo(amounts.get("fxRateToUSD").decimalValue()));
        assertEquals(new BigDecimal("125.00"), amounts.get("totalUSD").decimalValue());
    }

    @Test
    void staleRatesAreRefusedWith503AndRetryAfter() {
        MerchantConfiguration m = merchant(c -> c);
        Fixtures.rate("SEK", "0.095", "2020-01-01T00:00:00Z");
        publishable(m).contentType(ContentType.JSON).body(body("100", "SEK", "USDC", "ethereum"))
                .when().post("/transaction").then().statusCode(503).contentType("application/problem+json")
                .header("Retry-After", equalTo("60")).body("code", equalTo("service_unavailable"));
        Fixtures.rate("SEK", "0.095", null);
        publishable(m).contentType(ContentType.JSON).body(body("100", "SEK", "USDC", "ethereum"))
                .when().post("/transaction").then().statusCode(201);

        try {
            Fixtures.rate("ETH", "3200", "2020-01-01T00:00:00Z");
            publishable(m).contentType(ContentType.JSON).body(body("100", "USD", "ETH", "ethereum"))
                    .when().post("/transaction").then().statusCode(503).header("Retry-After", notNullValue());
        } finally {
            Fixtures.rate("ETH", "3200", null);
        }
    }

    @Test
    void callersWithoutTheRightKeyAreRefused() {
        MerchantConfiguration m = merchant(c -> c);
        io.restassured.RestAssured.given().contentType(ContentType.JSON).body(body("10", "USD", "BTC", "bitcoin"))
                .when().post("/transaction").then().statusCode(401).contentType("application/problem+json");
        io.restassured.RestAssured.given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(body("10", "USD", "BTC", "bitcoin")).when().post("/transaction").then().statusCode(403);
        apiKey(UUID.fromString(m.accountId()), IdentityClaims.ROLE_READ_ONLY, m.merchantId())
                .contentType(ContentType.JSON).body(body("10", "USD", "BTC", "bitcoin")).when().post("/transaction")
                .then().statusCode(403);
        publishable(m).when().get("/transaction/not-a-uuid").then().statusCode(404);
        publishable(m).when().get("/transaction/" + UUID.randomUUID()).then().statusCode(404)
                .body("code", equalTo("not_found"));
    }

    static void expectTypes(JsonNode node, Map<String, JsonNodeType> expected) {
        expected.forEach((field, type) -> {
            assertTrue(node.has(field), "missing " + field + " in " + node);
            assertEquals(type, node.get(field).getNodeType(), field + " in " + node);
        });
    }

    /** The account application.properties gives 3 open transactions per merchant in the test profile. */
    static final UUID SMALL_QUOTA_ACCOUNT = UUID.fromString("0b5e55ed-0000-4000-8000-000000000003");

    @Test
    void theFourthOpenTransactionOfAMerchantIsRefusedUntilOneEnds() {
        Fixtures.rate("BTC", "50000", null);
        MerchantConfiguration m = merchant(c -> c.accountId(SMALL_QUOTA_ACCOUNT));
        MerchantConfiguration sibling = merchant(c -> c.accountId(SMALL_QUOTA_ACCOUNT));
        MerchantConfiguration kyc = merchant(c -> c.accountId(SMALL_QUOTA_ACCOUNT).kycEnabled(true)
                .kycThreshold(new BigDecimal("1000")));
        String first = create(publishable(m), body("10", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        create(publishable(m), body("10", "USD", "BTC", "bitcoin"));
        create(apiKey(m), body("10", "USD", "BTC", "bitcoin"));
        publishable(m).contentType(ContentType.JSON).body(body("10", "USD", "BTC", "bitcoin"))
                .when().post("/transaction").then().statusCode(409).body("code", equalTo("limit_reached"));
        // per merchant: a sibling of the same account has its own count
        create(publishable(sibling), body("10", "USD", "BTC", "bitcoin"));
        // a transaction waiting for KYC (-3) is open too
        for (int i = 0; i < 3; i++) {
            assertEquals(-3, create(publishable(kyc), body("5000", "USD", "BTC", "bitcoin")).get("status").asInt());
        }
        publishable(kyc).contentType(ContentType.JSON).body(body("5000", "USD", "BTC", "bitcoin"))
                .when().post("/transaction").then().statusCode(409).body("code", equalTo("limit_reached"));
        // a cancelled one is not: room for exactly one more
        apiKey(m).contentType(ContentType.JSON).body("{}").when().patch("/transaction/" + first + "/cancel")
                .then().statusCode(200);
        create(publishable(m), body("10", "USD", "BTC", "bitcoin"));
        publishable(m).contentType(ContentType.JSON).body(body("10", "USD", "BTC", "bitcoin"))
                .when().post("/transaction").then().statusCode(409).body("code", equalTo("limit_reached"));
    }
}
