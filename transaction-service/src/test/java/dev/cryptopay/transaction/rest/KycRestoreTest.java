package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.get;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.outbox.OutboxEvent;
import dev.cryptopay.support.testing.LockWaits;
import dev.cryptopay.support.testing.TestTokens;
import dev.cryptopay.transaction.domain.KycCustomer;
import dev.cryptopay.transaction.domain.Transaction;
import io.agroal.api.AgroalDataSource;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * KYC restore by e-mail one-time code (docs/decisions.md §64, §65), the travel-rule originator wallet (§66) and the
 * STR filing (§67), against a real SMTP server (GreenMail on the test profile's port 13027).
 */
@QuarkusTest
class KycRestoreTest {

    static final byte[] PNG = { (byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 'I', 'H', 'D', 'R' };
    static final String WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
    static GreenMail smtp;

    @Inject
    AgroalDataSource dataSource;

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
        smtp = new GreenMail(new ServerSetup(13027, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
    }

    @AfterAll
    static void tearDown() {
        smtp.stop();
    }

    private static MerchantConfiguration kycMerchant() {
        Fixtures.rate("BTC", "50000", null);
        return merchant(c -> c.kycEnabled(true).kycThreshold(new BigDecimal("1000")));
    }

    /** A verified customer stored under {@code email}; returns the first transaction's id. */
    private static String storedCustomer(MerchantConfiguration m, String email) {
        String id = create(publishable(m), body("5000", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        publishable(m).multiPart("documentType", "PASSPORT").multiPart("firstName", "Ada")
                .multiPart("lastName", "Lovelace").multiPart("email", email).multiPart("street", "1 Analytical Row")
                .multiPart("city", "London").multiPart("region", "LND").multiPart("postalCode", "N1 7AA")
                .multiPart("country", "GB").multiPart("storeKYC", "true")
                .multiPart("documentFiles", "front.png", PNG, "image/png")
                .when().post("/transaction/" + id + "/verification").then().statusCode(200);
        return id;
    }

    private static String waitingTransaction(MerchantConfiguration m) {
        JsonNode created = create(publishable(m), body("5000", "USD", "BTC", "bitcoin"));
        assertEquals(-3, created.get("status").asInt());
        return created.get("transactionId").asText();
    }

    private static ExtractableResponse<Response> askCode(MerchantConfiguration m, String id, String email) {
        return publishable(m).contentType(ContentType.JSON).body(Map.of("email", email))
                .when().post("/transaction/" + id + "/verification/code").then().extract();
    }

    private static ExtractableResponse<Response> restore(MerchantConfiguration m, String id, String email,
            String code) {
        return publishable(m).contentType(ContentType.JSON).body(Map.of("email", email, "code", code))
                .when().post("/transaction/" + id + "/verification/restore").then().extract();
    }

    /** The code of the latest e-mail to {@code email}, waiting up to 10 s for it. */
    private static String mailedCode(String email) throws Exception {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline) {
            MimeMessage[] all = smtp.getReceivedMessages();
            for (int i = all.length - 1; i >= 0; i--) {
                if (Arrays.stream(all[i].getRecipients(Message.RecipientType.TO))
                        .anyMatch(a -> a.toString().equalsIgnoreCase(email))) {
                    Matcher digits = Pattern.compile("\\b([0-9]{6})\\b").matcher(GreenMailUtil.getBody(all[i]));
                    assertTrue(digits.find(), "the e-mail carries a six-digit code");
                    return digits.group(1);
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no e-mail to " + email);
    }

    private static long mailsTo(String email) throws Exception {
        long n = 0;
        for (MimeMessage message : smtp.getReceivedMessages()) {
            if (Arrays.stream(message.getRecipients(Message.RecipientType.TO))
                    .anyMatch(a -> a.toString().equalsIgnoreCase(email))) {
                n++;
            }
        }
        return n;
    }

    private static String email() {
        return "ada-" + UUID.randomUUID() + "@example.com";
    }

    @Test
    void aMailedCodeRestoresTheStoredVerificationOnceAndAnswersLikeAVerification() throws Exception {
        MerchantConfiguration m = kycMerchant();
        String email = email();
        String first = storedCustomer(m, email);
        String id = waitingTransaction(m);

        ExtractableResponse<Response> asked = askCode(m, id, email.toUpperCase());
        assertEquals(202, asked.statusCode());
        String code = mailedCode(email.toUpperCase());

        ExtractableResponse<Response> restored = restore(m, id, email, code);
        assertEquals(200, restored.statusCode(), restored.asString());
        JsonNode result = Fixtures.tree(restored.asString());
        assertEquals(0, result.get("status").asInt());
        assertEquals(id, result.get("transactionId").asText());
        assertFalse(result.get("address").isNull());
        assertFalse(result.get("qrData").isNull());
        assertEquals("0.10000000", result.get("assetAmount").asText());
        assertEquals(0, result.get("requiredFields").size());

        JsonNode tx = get(Fixtures.apiKey(m), id);
        assertEquals("accepted", tx.get("compliance").get("kycDetails").get("status").asText());
        assertEquals("Ada", tx.get("compliance").get("kycDetails").get("firstName").asText());
        JsonNode logs = tx.get("compliance").get("resolutionLogs");
        JsonNode last = logs.get(logs.size() - 1);
        assertEquals("kyc", last.get("trigger").asText());
        assertEquals("restored", last.get("outcome").asText());
        assertEquals("system", last.get("actor").asText());
        assertTrue(get(publishable(m), id).get("compliance").get("resolutionLogs").isNull());

        List<String> types = QuarkusTransaction.requiringNew().call(() -> Panache.getEntityManager()
                .createQuery("from OutboxEvent e where e.messageKey = ?1 order by e.seq", OutboxEvent.class)
                .setParameter(1, id).getResultList()).stream().map(e -> e.eventType).toList();
        assertEquals(List.of("transaction.created", "transaction.kyc_required", "transaction.verified"), types);
        QuarkusTransaction.requiringNew().run(() -> {
            KycCustomer customer = KycCustomer.findById(new KycCustomer.Key(UUID.fromString(m.accountId()), email));
            assertEquals(UUID.fromString(id), customer.lastTransactionId);
            Transaction restoredTx = Transaction.findById(UUID.fromString(id));
            assertEquals(first, restoredTx.kycDetails.restoredFrom());
            assertEquals(customer.details.documents(), restoredTx.kycDetails.documents());
        });

        // single use: the same code again, on another waiting transaction, does not restore
        String other = waitingTransaction(m);
        assertEquals(422, restore(m, other, email, code).statusCode());
        assertEquals(409, restore(m, id, email, code).statusCode(), "the first one is no longer waiting");
    }

    @Test
    void codesAreStoredOnlyAsKeyedHashes() throws Exception {
        MerchantConfiguration m = kycMerchant();
        String email = email();
        storedCustomer(m, email);
        String id = waitingTransaction(m);
        assertEquals(202, askCode(m, id, email).statusCode());
        String code = mailedCode(email);
        Object[] row = QuarkusTransaction.requiringNew().call(() -> (Object[]) Panache.getEntityManager()
                .createNativeQuery("select email_hash, code_hash, expires_at - created_at < interval '11 minutes' "
                        + "and expires_at - created_at > interval '9 minutes' from kyc_restore_code "
                        + "where transaction_id = :tx").setParameter("tx", UUID.fromString(id)).getSingleResult());
        assertTrue(((String) row[0]).matches("[0-9a-f]{64}"));
        assertFalse(((String) row[0]).contains("example"));
        assertTrue(((String) row[1]).matches("[0-9a-f]{64}"));
        assertNotEquals(sha256Hex(code), row[1], "not a bare hash of the code");
        assertEquals(Boolean.TRUE, row[2], "ten-minute lifetime");
    }

    @Test
    void anUnknownEmailIsAnsweredExactlyLikeAKnownOneAndGetsNoEmail() throws Exception {
        MerchantConfiguration m = kycMerchant();
        String known = email();
        String unknown = email();
        storedCustomer(m, known);
        String id = waitingTransaction(m);

        ExtractableResponse<Response> forUnknown = askCode(m, id, unknown);
        ExtractableResponse<Response> forKnown = askCode(m, id, known);
        assertEquals(202, forUnknown.statusCode());
        assertEquals(forKnown.statusCode(), forUnknown.statusCode());
        assertEquals(forKnown.asString(), forUnknown.asString());
        String code = mailedCode(known);
        Thread.sleep(500);
        assertEquals(0, mailsTo(unknown), "no e-mail for an unknown address");

        ExtractableResponse<Response> wrongForKnown = restore(m, id, known, code.equals("000000") ? "000001" : "000000");
        ExtractableResponse<Response> anyForUnknown = restore(m, id, unknown, code);
        assertEquals(422, wrongForKnown.statusCode());
        assertEquals(422, anyForUnknown.statusCode());
        assertEquals(Fixtures.tree(wrongForKnown.asString()).get("detail"),
                Fixtures.tree(anyForUnknown.asString()).get("detail"));
        assertEquals("restore_code_invalid", Fixtures.tree(anyForUnknown.asString()).get("code").asText());
        // the wrong try did not spend the known one's code
        assertEquals(200, restore(m, id, known, code).statusCode());
    }

    @Test
    void fiveWrongTriesSpendTheCode() throws Exception {
        MerchantConfiguration m = kycMerchant();
        String email = email();
        storedCustomer(m, email);
        String id = waitingTransaction(m);
        ExtractableResponse<Response> asked = askCode(m, id, email);
        assertEquals(202, asked.statusCode(), asked.asString());
        String code = mailedCode(email);
        String wrong = code.equals("123456") ? "654321" : "123456";
        for (int i = 0; i < 5; i++) {
            assertEquals(422, restore(m, id, email, wrong).statusCode());
        }
        assertEquals(422, restore(m, id, email, code).statusCode(), "spent after five wrong tries");
        assertEquals(-3, get(publishable(m), id).get("status").asInt());
    }

    @Test
    void anExpiredCodeDoesNotRestore() throws Exception {
        MerchantConfiguration m = kycMerchant();
        String email = email();
        storedCustomer(m, email);
        String id = waitingTransaction(m);
        assertEquals(202, askCode(m, id, email).statusCode());
        String code = mailedCode(email);
        QuarkusTransaction.requiringNew().run(() -> Panache.getEntityManager().createNativeQuery(
                "update kyc_restore_code set created_at = created_at - interval '11 minutes', "
                        + "expires_at = expires_at - interval '11 minutes' where transaction_id = :tx")
                .setParameter("tx", UUID.fromString(id)).executeUpdate());
        assertEquals(422, restore(m, id, email, code).statusCode());
        assertEquals(-3, get(publishable(m), id).get("status").asInt());
    }

    @Test
    void codesAreLimitedPerEmailAndRequestsAreValidated() {
        MerchantConfiguration m = kycMerchant();
        String email = email();
        String id = waitingTransaction(m);
        for (int i = 0; i < 5; i++) {
            assertEquals(202, askCode(m, id, email).statusCode());
        }
        ExtractableResponse<Response> limited = askCode(m, waitingTransaction(m), email);
        assertEquals(429, limited.statusCode(), "the sixth code for one e-mail within the hour");
        assertNotNull(limited.header("Retry-After"));
        publishable(m).contentType(ContentType.JSON).body("{\"email\":\"not-an-email\"}")
                .when().post("/transaction/" + id + "/verification/code")
                .then().statusCode(400).body("errors.field", hasItem("email"));
        publishable(m).contentType(ContentType.JSON).body("{\"email\":\"a@example.com\",\"code\":\"12ab\"}")
                .when().post("/transaction/" + id + "/verification/restore")
                .then().statusCode(400).body("errors.field", hasItem("code"));
        Fixtures.apiKey(m).contentType(ContentType.JSON).body(Map.of("email", email))
                .when().post("/transaction/" + id + "/verification/code").then().statusCode(403);
        String paid = create(publishable(m), body("10", "USD", "BTC", "bitcoin")).get("transactionId").asText();
        assertEquals(409, askCode(m, paid, email).statusCode(), "only a transaction waiting for verification");
    }

    @Test
    void twoRequestsForTheLastFreeCodeAtOnceGetOneCode() throws Exception {
        MerchantConfiguration m = kycMerchant();
        String email = email();
        String id = waitingTransaction(m);
        for (int i = 0; i < 4; i++) {
            assertEquals(202, askCode(m, id, email).statusCode());
        }
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try (Connection held = dataSource.getConnection()) {
            // The codes' table held, so both requests meet at the count of the e-mail's codes: four of five.
            held.setAutoCommit(false);
            try (Statement st = held.createStatement()) {
                st.execute("lock table kyc_restore_code in access exclusive mode");
            }
            Future<Integer> first = clients.submit(() -> askCode(m, id, email).statusCode());
            Future<Integer> second = clients.submit(() -> askCode(m, id, email).statusCode());
            LockWaits.awaitBlocked(dataSource, 2, first, second);
            held.commit();
            List<Integer> answers = new ArrayList<>(List.of(first.get(10, TimeUnit.SECONDS),
                    second.get(10, TimeUnit.SECONDS)));
            answers.sort(null);
            assertEquals(List.of(202, 429), answers, "the fifth code to one request, 429 to the other");
        } finally {
            clients.shutdownNow();
        }
        long codes = QuarkusTransaction.requiringNew().call(() -> ((Number) Panache.getEntityManager()
                .createNativeQuery("select count(*) from kyc_restore_code where transaction_id = :tx")
                .setParameter("tx", UUID.fromString(id)).getSingleResult()).longValue());
        assertEquals(5, codes, "never more than the e-mail's five codes in the window");
    }

    @Test
    void theTravelRuleAsksForTheOriginatorWalletAtItsThresholdOnly() {
        MerchantConfiguration m = merchant(c -> c.region("BE").country("DE")
                .travelRules(Map.of("BE", new BigDecimal("500"))));
        assertEquals(0, create(publishable(m), body("499.99", "EUR", "USDC", "ethereum")).get("status").asInt());
        JsonNode at = create(publishable(m), body("500", "EUR", "USDC", "ethereum"));
        assertEquals(-3, at.get("status").asInt());
        assertTrue(at.get("address").isNull());
        List<String> required = Fixtures.JSON.convertValue(at.get("requiredFields"),
                Fixtures.JSON.getTypeFactory().constructCollectionType(List.class, String.class));
        assertEquals(List.of("firstName", "lastName", "email", "address", "originatorWallet"), required);
        String id = at.get("transactionId").asText();
        verification(publishable(m)).when().post("/transaction/" + id + "/verification")
                .then().statusCode(400).body("errors.field", equalTo(List.of("originatorWallet")));
        verification(publishable(m)).multiPart("originatorWallet", "not a wallet")
                .when().post("/transaction/" + id + "/verification")
                .then().statusCode(400).body("errors.field", equalTo(List.of("originatorWallet")));
        assertEquals(-3, get(publishable(m), id).get("status").asInt());
        verification(publishable(m)).multiPart("originatorWallet", WALLET)
                .when().post("/transaction/" + id + "/verification").then().statusCode(200);
        QuarkusTransaction.requiringNew().run(() -> {
            Transaction tx = Transaction.findById(UUID.fromString(id));
            assertEquals(WALLET, tx.kycDetails.originatorWallet());
            assertEquals("Ada", tx.kycDetails.customer().firstName());
            assertEquals("1 Analytical Row", tx.kycDetails.customer().street());
        });

        // KYC alone (no travel rule) does not ask for the wallet
        MerchantConfiguration kycOnly = kycMerchant();
        JsonNode kyc = create(publishable(kycOnly), body("5000", "USD", "BTC", "bitcoin"));
        assertFalse(kyc.get("requiredFields").toString().contains("originatorWallet"));
    }

    @Test
    void anOperatorFilesASuspiciousTransactionReportOnce() {
        MerchantConfiguration m = kycMerchant();
        String id = waitingTransaction(m);
        operator().body(Map.of("reference", "FIU-2026-0001")).when().post("/operator/transactions/" + id + "/str")
                .then().statusCode(201).body("strFilingReference", equalTo("FIU-2026-0001"));
        operator().body(Map.of("reference", "FIU-2026-0001")).when().post("/operator/transactions/" + id + "/str")
                .then().statusCode(200).body("strFilingReference", equalTo("FIU-2026-0001"));
        operator().body(Map.of("reference", "FIU-2026-0002")).when().post("/operator/transactions/" + id + "/str")
                .then().statusCode(409).body("code", equalTo("str_already_filed"));
        operator().body("{}").when().post("/operator/transactions/" + id + "/str")
                .then().statusCode(400).body("errors.field", hasItem("reference"));
        operator().body(Map.of("reference", "x")).when().post("/operator/transactions/" + UUID.randomUUID() + "/str")
                .then().statusCode(404);
        Fixtures.apiKey(m).contentType(ContentType.JSON).body(Map.of("reference", "FIU-1"))
                .when().post("/operator/transactions/" + id + "/str").then().statusCode(403);

        JsonNode tx = get(Fixtures.apiKey(m), id);
        assertEquals("FIU-2026-0001", tx.get("compliance").get("strFilingReference").asText());
        JsonNode logs = tx.get("compliance").get("resolutionLogs");
        assertEquals(1, logs.size(), "the idempotent repeat logs nothing");
        assertEquals("str", logs.get(0).get("trigger").asText());
        assertEquals("filed", logs.get(0).get("outcome").asText());
        assertTrue(logs.get(0).get("actor").asText().startsWith("operator:"));
        assertTrue(get(publishable(m), id).get("compliance").get("strFilingReference").isNull());
    }

    private static RequestSpecification operator() {
        return RestAssured.given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON);
    }

    private static RequestSpecification verification(RequestSpecification as) {
        return as.multiPart("documentType", "PASSPORT").multiPart("firstName", "Ada").multiPart("lastName", "Lovelace")
                .multiPart("email", email()).multiPart("street", "1 Analytical Row")
                .multiPart("city", "London").multiPart("region", "LND").multiPart("postalCode", "N1 7AA")
                .multiPart("country", "GB").multiPart("documentFiles", "front.png", PNG, "image/png");
    }

    private static String sha256Hex(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
