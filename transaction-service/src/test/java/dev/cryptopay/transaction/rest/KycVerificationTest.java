package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.get;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.outbox.OutboxEvent;
import dev.cryptopay.transaction.domain.KycCustomer;
import dev.cryptopay.transaction.domain.KycDocument;
import dev.cryptopay.transaction.service.KycDocuments;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class KycVerificationTest {

    @Inject
    KycDocuments documents;

    static final byte[] PNG = { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 'I', 'H', 'D', 'R' };
    static final byte[] JPEG = { (byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 0x10, 'J', 'F', 'I', 'F' };
    static final byte[] PDF = "%PDF-1.7\n%âãÏÓ\n1 0 obj".getBytes();

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    private static MerchantConfiguration kycMerchant() {
        return merchant(c -> c.kycEnabled(true).kycThreshold(new BigDecimal("1000")));
    }

    @Test
    void belowTheThresholdNoKycIsAsked() {
        MerchantConfiguration m = kycMerchant();
        JsonNode created = create(publishable(m), body("999.99", "USD", "BTC", "bitcoin"));
        assertEquals(0, created.get("status").asInt());
        JsonNode compliance = get(publishable(m), created.get("transactionId").asText()).get("compliance");
        assertFalse(compliance.get("kycTriggered").asBoolean());
        assertFalse(compliance.get("travelRuleTriggered").asBoolean());
    }

    @Test
    void atTheThresholdTheTransactionWaitsForKycWithoutAnAddress() {
        MerchantConfiguration m = kycMerchant();
        JsonNode created = create(publishable(m), body("1000", "USD", "BTC", "bitcoin"));
        assertEquals(-3, created.get("status").asInt());
        assertTrue(created.get("address").isNull());
        assertTrue(created.get("qrData").isNull());
        assertTrue(created.get("assetAmount").isNull());
        assertTrue(created.get("paymentRequestId").isNull());
        assertEquals(List.of("firstName", "lastName", "email", "address"), strings(created.get("requiredFields")));
        assertEquals(List.of("ID_CARD", "PASSPORT", "RESIDENCE_PERMIT", "DRIVERS"),
                strings(created.get("supportedDocumentTypes")));
        JsonNode tx = get(publishable(m), created.get("transactionId").asText());
        assertEquals(-3, tx.get("status").asInt());
        assertEquals(0, tx.get("payments").size());
        assertTrue(tx.get("compliance").get("kycTriggered").asBoolean());
        // a payment request must wait for the verification
        publishable(m).contentType(ContentType.JSON).body("{\"asset\":\"BTC\",\"network\":\"bitcoin\"}")
                .when().post("/transaction/" + created.get("transactionId").asText() + "/payment")
                .then().statusCode(409).body("code", equalTo("invalid_state"));
    }

    @Test
    void theTravelRuleOfTheMerchantsRegionTriggersVerification() {
        MerchantConfiguration m = merchant(c -> c.region("BE").country("DE")
                .travelRules(Map.of("BE", new BigDecimal("500"))));
        JsonNode below = create(publishable(m), body("499.99", "EUR", "USDC", "ethereum"));
        assertEquals(0, below.get("status").asInt());
        JsonNode above = create(publishable(m), body("500", "EUR", "USDC", "ethereum"));
        assertEquals(-3, above.get("status").asInt());
        JsonNode compliance = get(publishable(m), above.get("transactionId").asText()).get("compliance");
        assertTrue(compliance.get("travelRuleTriggered").asBoolean());
        assertFalse(compliance.get("kycTriggered").asBoolean());
    }

    @Test
    void anIncompleteVerificationNamesEveryMissingField() {
        MerchantConfiguration m = kycMerchant();
        String id = create(publishable(m), body("5000", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        publishable(m).multiPart("firstName", "Ada").multiPart("email", "ada@example.com")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("validation_failed"))
                .body("errors.field", containsInAnyOrder("lastName", "street", "city", "region", "postalCode",
                        "country", "documentType", "documentFiles"));
        publishable(m).multiPart("email", "not-an-email").multiPart("country", "XX").multiPart("documentType", "SELFIE")
                .multiPart("storeKYC", "maybe")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(400).body("errors.field", org.hamcrest.Matchers.hasItems("email", "country",
                        "storeKYC"));
        assertEquals(-3, get(publishable(m), id).get("status").asInt());
    }

    @Test
    void documentsAreCheckedBySizeAndContent() {
        MerchantConfiguration m = kycMerchant();
        String id = create(publishable(m), body("5000", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        complete(publishable(m)).multiPart("documentFiles", "id.png", "<html>not an image</html>".getBytes(), "image/png")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(415).contentType("application/problem+json");
        byte[] huge = Arrays.copyOf(PNG, 10 * 1024 * 1024 + 1);
        complete(publishable(m)).multiPart("documentFiles", "id.png", huge, "image/png")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(413).contentType("application/problem+json");
        complete(publishable(m)).multiPart("documentFiles", "a.png", PNG, "image/png")
                .multiPart("documentFiles", "b.png", PNG, "image/png").multiPart("documentFiles", "c.png", PNG, "image/png")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(400).body("errors.field", equalTo(List.of("documentFiles")));
        publishable(m).contentType(ContentType.JSON).body("{\"firstName\":\"Ada\"}")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(415).contentType("application/problem+json");
        Fixtures.apiKey(m).multiPart("firstName", "Ada").when().post("/transaction/" + id + "/verification")
                .then().statusCode(403);
        assertEquals(-3, get(publishable(m), id).get("status").asInt());
    }

    @Test
    void aCompleteVerificationMovesToPendingAndAnswersLikeCreation() {
        Fixtures.rate("BTC", "50000", null);
        MerchantConfiguration m = kycMerchant();
        String id = create(publishable(m), body("5000", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        JsonNode result = Fixtures.tree(complete(publishable(m))
                .multiPart("asset", "USDC").multiPart("network", "base").multiPart("storeKYC", "true")
                .multiPart("documentFiles", "front.jpg", JPEG, "application/octet-stream")
                .multiPart("documentFiles", "rear.pdf", PDF, "application/pdf")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(200).extract().asString());
        assertEquals(0, result.get("status").asInt());
        assertEquals(id, result.get("transactionId").asText());
        assertTrue(result.get("address").asText().startsWith("0x"));
        assertEquals("5000.000000", result.get("assetAmount").asText());
        assertEquals(0, result.get("requiredFields").size());

        JsonNode customerView = get(publishable(m), id);
        assertTrue(customerView.get("compliance").get("kycDetails").isNull(), "no personal data for a public key");
        assertTrue(customerView.get("compliance").get("resolutionLogs").isNull(), "no tipping off (docs/decisions.md §11)");
        assertTrue(customerView.get("compliance").get("strFilingReference").isNull());
        JsonNode tx = get(Fixtures.apiKey(m), id);
        assertEquals(0, tx.get("status").asInt());
        assertEquals(1, tx.get("payments").size());
        assertEquals("USDC", tx.get("payments").get(0).get("cryptoAsset").asText());
        JsonNode kyc = tx.get("compliance").get("kycDetails");
        assertEquals("accepted", kyc.get("status").asText());
        assertEquals("PASSPORT", kyc.get("documentType").asText());
        assertEquals("Ada", kyc.get("firstName").asText());
        assertEquals("ada@example.com", kyc.get("email").asText());
        assertEquals("GB", kyc.get("country").asText());
        assertTrue(kyc.get("customerStored").asBoolean());
        assertEquals(2, kyc.get("documents").size());
        assertEquals("image/jpeg", kyc.get("documents").get(0).get("contentType").asText());
        assertEquals("front", kyc.get("documents").get(0).get("side").asText());
        assertEquals("application/pdf", kyc.get("documents").get(1).get("contentType").asText());
        assertFalse(kyc.has("street"), "street stays stored, not shown");

        QuarkusTransaction.requiringNew().run(() -> {
            assertEquals(2, KycDocument.count("transactionId", UUID.fromString(id)));
            KycCustomer customer = KycCustomer.findById(new KycCustomer.Key(UUID.fromString(m.accountId()),
                    "ada@example.com"));
            assertEquals("1 Analytical Row", customer.details.customer().street());
            assertEquals(UUID.fromString(id), customer.lastTransactionId);
        });
        // -3 → 0 publishes transaction.verified, without the personal data (docs/decisions.md §7)
        List<OutboxEvent> events = QuarkusTransaction.requiringNew().call(() -> Panache.getEntityManager()
                .createQuery("from OutboxEvent e where e.messageKey = ?1 order by e.seq", OutboxEvent.class)
                .setParameter(1, id).getResultList());
        assertEquals(List.of("transaction.created", "transaction.kyc_required", "transaction.verified"),
                events.stream().map(e -> e.eventType).toList());
        JsonNode verified = CloudEvent.parse(events.get(2).payload).data();
        assertEquals(0, verified.get("status").asInt());
        assertEquals(3, verified.get("version").asInt());
        assertTrue(verified.get("compliance").get("kycDetails").isNull(), "no personal data in events");
        assertEquals(1, verified.get("payments").size());

        // a second verification of the same transaction is a state conflict
        complete(publishable(m)).multiPart("documentFiles", "front.png", PNG, "image/png")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(409).body("code", equalTo("invalid_state"));
    }

    @Test
    void prefilledDetailsFromCreationCountTowardsTheVerification() {
        MerchantConfiguration m = kycMerchant();
        JsonNode created = create(publishable(m), """
                {"amount":2500,"amountCurrency":"USD","asset":"ETH","network":"ethereum",
                 "optional":{"firstName":"Grace","lastName":"Hopper","email":"grace@example.com",
                   "street1":"7 Navy Yard","street2":"Suite 1","city":"Arlington","region":"VA","postalCode":"22201","country":"US"}}""");
        assertEquals(-3, created.get("status").asInt());
        assertEquals(0, created.get("requiredFields").size());
        JsonNode result = Fixtures.tree(publishable(m).multiPart("documentType", "DRIVERS")
                .multiPart("documentFiles", "front.png", PNG, "image/png")
                .when().post("/transaction/" + created.get("transactionId").asText() + "/verification")
                .then().statusCode(200).extract().asString());
        assertEquals(0, result.get("status").asInt());
        assertTrue(result.get("qrData").asText().startsWith("ethereum:0x"));
        JsonNode kyc = get(Fixtures.apiKey(m), created.get("transactionId").asText()).get("compliance").get("kycDetails");
        assertEquals("Grace", kyc.get("firstName").asText());
        assertFalse(kyc.get("customerStored").asBoolean());
    }

    @Test
    void documentsAreSealedAtRestAndOpenOnlyWithTheirKeyAndId() {
        Fixtures.rate("BTC", "50000", null);
        MerchantConfiguration m = kycMerchant();
        String id = create(publishable(m), body("5000", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        complete(publishable(m)).multiPart("documentFiles", "front.pdf", PDF, "application/pdf")
                .when().post("/transaction/" + id + "/verification").then().statusCode(200);
        QuarkusTransaction.requiringNew().run(() -> {
            KycDocument stored = KycDocument.find("transactionId", UUID.fromString(id)).firstResult();
            assertTrue(stored.encrypted);
            assertEquals(PDF.length, stored.sizeBytes);
            assertFalse(new String(stored.content, java.nio.charset.StandardCharsets.ISO_8859_1).contains("%PDF"),
                    "the document is in clear");
            assertEquals(PDF.length + 1 + 12 + 16, stored.content.length, "version, nonce, ciphertext, tag");
            assertTrue(Arrays.equals(PDF, documents.content(stored)), "the key opens it");
            KycDocument moved = new KycDocument();
            moved.id = UUID.randomUUID();
            moved.content = stored.content;
            moved.encrypted = true;
            assertThrows(IllegalStateException.class, () -> documents.content(moved),
                    "a sealed document copied to another row does not open");
        });
    }

    @Test
    void storeKycNeverOverwritesTheStoredCustomerOfAnEmail() {
        Fixtures.rate("BTC", "50000", null);
        MerchantConfiguration m = kycMerchant();
        String first = create(publishable(m), body("5000", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        complete(publishable(m)).multiPart("storeKYC", "true")
                .multiPart("documentFiles", "front.png", PNG, "image/png")
                .when().post("/transaction/" + first + "/verification").then().statusCode(200);
        String second = create(publishable(m), body("5000", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        publishable(m).multiPart("documentType", "PASSPORT").multiPart("firstName", "Mallory")
                .multiPart("lastName", "Lovelace").multiPart("email", "ADA@example.com")
                .multiPart("street", "9 Elsewhere").multiPart("city", "London").multiPart("region", "LND")
                .multiPart("postalCode", "N1 7AA").multiPart("country", "GB").multiPart("storeKYC", "true")
                .multiPart("documentFiles", "front.png", PNG, "image/png")
                .when().post("/transaction/" + second + "/verification").then().statusCode(200);
        QuarkusTransaction.requiringNew().run(() -> {
            KycCustomer customer = KycCustomer.findById(new KycCustomer.Key(UUID.fromString(m.accountId()),
                    "ada@example.com"));
            assertEquals("Ada", customer.details.customer().firstName(), "the first record stays");
            assertEquals("1 Analytical Row", customer.details.customer().street());
            assertEquals(UUID.fromString(first), customer.lastTransactionId);
            assertEquals(1, KycCustomer.count("key.accountId", UUID.fromString(m.accountId())));
        });
        assertEquals("Mallory", get(Fixtures.apiKey(m), second).get("compliance").get("kycDetails")
                .get("firstName").asText(), "the second verification keeps its own details");
    }

    private static RequestSpecification complete(RequestSpecification as) {
        return as.multiPart("documentType", "PASSPORT").multiPart("firstName", "Ada").multiPart("lastName", "Lovelace")
                .multiPart("email", "Ada@Example.com".toLowerCase()).multiPart("street", "1 Analytical Row")
                .multiPart("city", "London").multiPart("region", "LND").multiPart("postalCode", "N1 7AA")
                .multiPart("country", "GB");
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new java.util.ArrayList<>();
        array.forEach(n -> values.add(n.asText()));
        return values;
    }
}
