package dev.cryptopay.systemtests.security;

import static dev.cryptopay.systemtests.ServiceDatabases.awaitTrue;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.asApiKey;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.awaitKycTransaction;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newAccount;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newMerchant;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newPublishableKey;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.pngWith;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.rows;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.tree;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.security.TransactionSecurityFixtures.Account;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * KYC documents and stored customers (issue #13, "Personal data"; docs/decisions.md §45, §46): documents are
 * sealed at rest with the configured key (rows stored in clear before are sealed on start), deleted after the
 * retention period while the verification result stays, and {@code storeKYC} never overwrites the stored record
 * of an e-mail that already has one.
 */
class KycDocumentsIT {

    private static Suite suite;
    private static Account account;
    private static String merchant;
    private static String publishable;

    @BeforeAll
    static void start() {
        suite = TransactionSecurityFixtures.start();
        account = newAccount("Kyc Documents Ltd");
        merchant = newMerchant(account, "Pawn Shop", true);
        publishable = newPublishableKey(account, merchant);
    }

    @Test
    void aDocumentIsStoredSealedNeverInClear() {
        String id = awaitKycTransaction(publishable);
        String marker = "PASSPORT-NO-" + UUID.randomUUID();
        byte[] document = pngWith(marker);
        verify(publishable, id, "Ada", "ada-" + UUID.randomUUID() + "@example.com", false, document);

        List<List<Object>> stored = rows("select content, encrypted, size_bytes from kyc_document "
                + "where transaction_id = ?", UUID.fromString(id));
        assertEquals(1, stored.size());
        byte[] content = (byte[]) stored.get(0).get(0);
        assertEquals(true, stored.get(0).get(1), "marked as sealed");
        assertEquals(document.length, ((Number) stored.get(0).get(2)).intValue(), "the size is the document's");
        assertFalse(new String(content, StandardCharsets.ISO_8859_1).contains(marker), "the document is in clear");
        assertFalse(Arrays.equals(Arrays.copyOf(content, 8), TransactionSecurityFixtures.PNG),
                "the stored bytes start like the PNG itself");
        assertEquals(document.length + 1 + 12 + 16, content.length, "version, nonce, ciphertext and GCM tag");
    }

    @Test
    void storeKycKeepsTheFirstRecordOfAnEmail() {
        String email = "returning-" + UUID.randomUUID() + "@example.com";
        String first = awaitKycTransaction(publishable);
        verify(publishable, first, "Ada", email, true, pngWith("first"));
        String second = awaitKycTransaction(publishable);
        // someone else who knows the e-mail (in another case) submits other details with storeKYC=true
        verify(publishable, second, "Mallory", email.toUpperCase(), true, pngWith("second"));

        List<List<Object>> stored = rows("select details::text, last_transaction_id from kyc_customer "
                + "where account_id = ? and email = ?", UUID.fromString(account.id()), email);
        assertEquals(1, stored.size());
        JsonNode details = tree((String) stored.get(0).get(0));
        assertEquals("Ada", details.at("/customer/firstName").asText(), "the first record was overwritten");
        assertEquals(first, stored.get(0).get(1).toString());
        // the second verification itself went through with its own details
        JsonNode secondTx = tree(asApiKey(account, merchant).when().get("/transaction/" + second).then()
                .statusCode(200).extract().asString());
        assertEquals("Mallory", secondTx.at("/compliance/kycDetails/firstName").asText());
        assertEquals(0, secondTx.get("status").asInt());
    }

    @Test
    void legacyDocumentsAreSealedOnStartAndOldOnesDeletedWhileTheVerificationStays() {
        String id = awaitKycTransaction(publishable);
        verify(publishable, id, "Ada", "ada-" + UUID.randomUUID() + "@example.com", false, pngWith("recent"));
        UUID tx = UUID.fromString(id);
        // two documents as a release before sealing stored them: one recent, one past a one-hour retention
        UUID recent = UUID.randomUUID();
        UUID old = UUID.randomUUID();
        byte[] clear = pngWith("LEGACY-IN-CLEAR");
        ServiceDatabases.update("transaction", "insert into kyc_document (id, transaction_id, side, content_type, size_bytes, content, created_at) "
                + "values (?, ?, 'rear', 'image/png', ?, ?, ?)", recent, tx, clear.length, clear,
                Timestamp.from(Instant.now()));
        ServiceDatabases.update("transaction", "insert into kyc_document (id, transaction_id, side, content_type, size_bytes, content, created_at) "
                + "values (?, ?, 'rear', 'image/png', ?, ?, ?)", old, tx, clear.length, clear,
                Timestamp.from(Instant.now().minus(Duration.ofHours(2))));

        suite.stopService("transaction");
        try {
            suite.startReplicas("transaction", Map.of("transaction", Suite.port("transaction")),
                    Map.of("KYC_DOCUMENT_RETENTION", "PT1H", "KYC_PURGE_INTERVAL", "1s"));
            awaitTrue(() -> rows("select 1 from kyc_document where id = ?", old).isEmpty(),
                    "the document past its retention is deleted");
            List<List<Object>> sealed = rows("select content, encrypted from kyc_document where id = ?", recent);
            assertEquals(1, sealed.size(), "the recent document is kept");
            assertEquals(true, sealed.get(0).get(1));
            byte[] content = (byte[]) sealed.get(0).get(0);
            assertFalse(new String(content, StandardCharsets.ISO_8859_1).contains("LEGACY-IN-CLEAR"),
                    "the legacy document is still in clear");
            assertNotEquals(clear.length, content.length);
            assertEquals(1, rows("select 1 from kyc_document where transaction_id = ? and side = 'front'", tx).size(),
                    "the verification's own document is within the retention");

            // the verification's result stays on the transaction
            JsonNode read = tree(asApiKey(account, merchant).when().get("/transaction/" + id).then().statusCode(200)
                    .extract().asString());
            assertEquals("Ada", read.at("/compliance/kycDetails/firstName").asText());
            assertTrue(read.at("/compliance/kycDetails/documents").size() >= 1);
        } finally {
            suite.restart("transaction");
        }
    }
}
