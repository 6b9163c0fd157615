package dev.cryptopay.systemtests.compliance;

import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.awaitCreated;
import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.order;
import static dev.cryptopay.systemtests.compliance.KycRestoreFixtures.verification;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.compliance.KycRestoreFixtures.Shop;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * KYC restore through the gateway (docs/decisions.md §64, §65): a returning customer with a stored verification asks
 * for a one-time code on a later transaction in -3, receives it by e-mail (a real SMTP server on Suite.SMTP_PORT) and
 * enters it; wrong, expired, reused and over-tried codes are one 422; an unknown e-mail is answered like a known one.
 */
class KycRestoreIT {

    private static Shop shop;
    private static GreenMail smtp;

    @BeforeAll
    static void start() {
        KycRestoreFixtures.start();
        smtp = new GreenMail(new ServerSetup(Suite.SMTP_PORT, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        shop = KycRestoreFixtures.shop("Restore Ltd", "\"kycEnabled\":true,\"kycThreshold\":1000");
    }

    @AfterAll
    static void stop() {
        if (smtp != null) {
            smtp.stop();
        }
    }

    private static String waiting() {
        return awaitCreated(shop, order("2500", "USD", "BTC", "bitcoin"), r -> r.getInt("status") == -3)
                .getString("transactionId");
    }

    /** A customer verified with storeKYC=true under a new e-mail. */
    private static String returningCustomer() {
        String email = "ada-" + UUID.randomUUID() + "@example.com";
        verification(shop, email, true).when().post("/transaction/" + waiting() + "/verification")
                .then().statusCode(200);
        return email;
    }

    private static Response askCode(String id, String email) {
        return shop.asPublishable().contentType(ContentType.JSON).body(Map.of("email", email))
                .when().post("/transaction/" + id + "/verification/code");
    }

    private static Response restore(String id, String email, String code) {
        return shop.asPublishable().contentType(ContentType.JSON).body(Map.of("email", email, "code", code))
                .when().post("/transaction/" + id + "/verification/restore");
    }

    private static String mailedCode(String email) throws Exception {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline) {
            for (MimeMessage m : smtp.getReceivedMessages()) {
                if (Arrays.stream(m.getRecipients(Message.RecipientType.TO))
                        .anyMatch(a -> a.toString().equalsIgnoreCase(email))) {
                    Matcher digits = Pattern.compile("\\b([0-9]{6})\\b").matcher(GreenMailUtil.getBody(m));
                    assertTrue(digits.find());
                    return digits.group(1);
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no e-mail to " + email);
    }

    private static boolean mailedTo(String email) throws Exception {
        for (MimeMessage m : smtp.getReceivedMessages()) {
            if (Arrays.stream(m.getRecipients(Message.RecipientType.TO))
                    .anyMatch(a -> a.toString().equalsIgnoreCase(email))) {
                return true;
            }
        }
        return false;
    }

    private static String other(String code) {
        return code.equals("000000") ? "000001" : "000000";
    }

    @Test
    void aReturningCustomerRestoresTheirVerificationWithTheMailedCodeOnce() throws Exception {
        String email = returningCustomer();
        String id = waiting();
        Response asked = askCode(id, email);
        assertEquals(202, asked.statusCode(), asked.asString());
        String code = mailedCode(email);

        Response restored = restore(id, email, code);
        assertEquals(200, restored.statusCode(), restored.asString());
        JsonPath result = restored.jsonPath();
        assertEquals(0, result.getInt("status"));
        assertEquals(id, result.getString("transactionId"));
        assertTrue(result.getString("address") != null && !result.getString("address").isBlank());
        assertTrue(result.getString("qrData").startsWith("bitcoin:"));

        JsonPath tx = shop.asApiKey().get("/transaction/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals("accepted", tx.getString("compliance.kycDetails.status"));
        assertEquals("kyc", tx.getString("compliance.resolutionLogs[-1].trigger"));
        assertEquals("restored", tx.getString("compliance.resolutionLogs[-1].outcome"));

        // reuse: the code is spent
        assertEquals(422, restore(waiting(), email, code).statusCode());
    }

    @Test
    void wrongExpiredAndOverTriedCodesAreOneProblem() throws Exception {
        String email = returningCustomer();
        String id = waiting();
        assertEquals(202, askCode(id, email).statusCode());
        String code = mailedCode(email);
        Response wrong = restore(id, email, other(code));
        assertEquals(422, wrong.statusCode());
        assertEquals("restore_code_invalid", wrong.jsonPath().getString("code"));
        for (int i = 0; i < 4; i++) {
            assertEquals(422, restore(id, email, other(code)).statusCode());
        }
        assertEquals(422, restore(id, email, code).statusCode(), "five wrong tries spend the code");

        String email2 = returningCustomer();
        String id2 = waiting();
        assertEquals(202, askCode(id2, email2).statusCode());
        String code2 = mailedCode(email2);
        ServiceDatabases.update("transaction", "update kyc_restore_code set expires_at = now() - interval '1 second' "
                + "where transaction_id = ?", UUID.fromString(id2));
        Response expired = restore(id2, email2, code2);
        assertEquals(422, expired.statusCode());
        assertEquals(wrong.jsonPath().getString("detail"), expired.jsonPath().getString("detail"));
        assertEquals(-3, shop.asPublishable().get("/transaction/" + id2).then().extract().jsonPath().getInt("status"));
    }

    @Test
    void anUnknownEmailIsIndistinguishableAndReceivesNothing() throws Exception {
        String known = returningCustomer();
        String unknown = "nobody-" + UUID.randomUUID() + "@example.com";
        String id = waiting();
        Response forUnknown = askCode(id, unknown);
        Response forKnown = askCode(id, known);
        assertEquals(202, forUnknown.statusCode());
        assertEquals(forKnown.statusCode(), forUnknown.statusCode());
        assertEquals(forKnown.asString(), forUnknown.asString());
        String code = mailedCode(known);
        Thread.sleep(1000);
        assertFalse(mailedTo(unknown), "an unknown e-mail gets no e-mail");
        Response unknownRestore = restore(id, unknown, code);
        Response wrongKnown = restore(id, known, other(code));
        assertEquals(422, unknownRestore.statusCode());
        assertEquals(wrongKnown.statusCode(), unknownRestore.statusCode());
        assertEquals(wrongKnown.jsonPath().getString("detail"), unknownRestore.jsonPath().getString("detail"));
    }
}
