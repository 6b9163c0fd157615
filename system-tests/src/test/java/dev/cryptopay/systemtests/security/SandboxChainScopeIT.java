package dev.cryptopay.systemtests.security;

import static dev.cryptopay.systemtests.ServiceDatabases.awaitTrue;
import static dev.cryptopay.systemtests.ServiceDatabases.sleep;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.asApiKey;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.awaitCreated;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newAccount;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newMerchant;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.newPublishableKey;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.order;
import static dev.cryptopay.systemtests.security.TransactionSecurityFixtures.tree;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.systemtests.security.TransactionSecurityFixtures.Account;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sandbox chain is scoped to its caller (issue #13, Low; docs/decisions.md §48): an account sends transfers
 * only to its own payment requests (another tenant's address, or any other, is 404), and the blocks it mines take
 * only its own pending transfers, never another tenant's.
 */
class SandboxChainScopeIT {

    private static Account alice;
    private static String aliceMerchant;
    private static String alicePublishable;
    private static Account bob;
    private static String bobMerchant;
    private static String bobPublishable;

    @BeforeAll
    static void start() {
        TransactionSecurityFixtures.start();
        alice = newAccount("Alice Sandbox Ltd");
        aliceMerchant = newMerchant(alice, "Alice Shop", false);
        alicePublishable = newPublishableKey(alice, aliceMerchant);
        bob = newAccount("Bob Sandbox Ltd");
        bobMerchant = newMerchant(bob, "Bob Shop", false);
        bobPublishable = newPublishableKey(bob, bobMerchant);
    }

    @Test
    void transfersGoOnlyToTheCallersOwnPaymentRequests() {
        JsonPath aliceTx = awaitCreated(alicePublishable, order("10", "USD", "BTC", "bitcoin"), r -> true);
        String address = aliceTx.getString("address");

        // bob cannot pay (or fake payments to) alice's address, nor to an address that is no payment request
        transfer(bob, "bitcoin", "BTC", address, "0.0002", 1).then().statusCode(404)
                .contentType("application/problem+json");
        transfer(bob, "bitcoin", "BTC", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "0.0002", 1).then()
                .statusCode(404);
        // alice can
        transfer(alice, "bitcoin", "BTC", address, "0.0002", 1).then().statusCode(201);
        String id = aliceTx.getString("transactionId");
        awaitTrue(() -> transactionOf(alice, aliceMerchant, id).at("/payments/0/transfers").size() == 1,
                "alice's transfer is detected");
        assertEquals(1, transactionOf(alice, aliceMerchant, id).at("/payments/0/transfers").size(),
                "bob's attempts left no transfer");
    }

    @Test
    void aMinedBlockTakesOnlyTheMinersPendingTransfers() {
        JsonPath aliceTx = awaitCreated(alicePublishable, order("10", "USD", "USDC", "polygon"), r -> true);
        JsonPath bobTx = awaitCreated(bobPublishable, order("10", "USD", "USDC", "polygon"), r -> true);
        // both send a transfer that waits in the pool (0 confirmations)
        transfer(bob, "polygon", "USDC", bobTx.getString("address"), "1", 0).then().statusCode(201);
        transfer(alice, "polygon", "USDC", aliceTx.getString("address"), "1", 0).then().statusCode(201);

        // alice mines: her transfer is in the block, bob's is not
        given().header("X-Api-Key", alice.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"polygon\",\"count\":1}").when().post("/sandbox/chain/blocks").then()
                .statusCode(200);
        String aliceId = aliceTx.getString("transactionId");
        String bobId = bobTx.getString("transactionId");
        awaitTrue(() -> inBlock(transactionOf(alice, aliceMerchant, aliceId)), "alice's transfer is in a block");
        // the watcher has read alice's block (and sees bob's transfer pending, from the pool)
        awaitTrue(() -> transactionOf(bob, bobMerchant, bobId).at("/payments/0/transfers").size() == 1,
                "bob's pending transfer is seen");
        sleep(1000);
        JsonNode bobsTransfer = transactionOf(bob, bobMerchant, bobId).at("/payments/0/transfers/0");
        assertTrue(bobsTransfer.get("blockNumber").isNull(), "alice's block took bob's pending transfer: "
                + bobsTransfer);
        assertEquals(0, bobsTransfer.get("confirmations").asInt());

        // bob mines his own
        given().header("X-Api-Key", bob.apiKey()).contentType(ContentType.JSON)
                .body("{\"network\":\"polygon\",\"count\":1}").when().post("/sandbox/chain/blocks").then()
                .statusCode(200);
        awaitTrue(() -> inBlock(transactionOf(bob, bobMerchant, bobId)), "bob's transfer is in his block");
    }

    private static boolean inBlock(JsonNode transaction) {
        JsonNode transfers = transaction.at("/payments/0/transfers");
        return transfers.size() == 1 && !transfers.get(0).get("blockNumber").isNull();
    }

    private static io.restassured.response.Response transfer(Account account, String network, String asset,
            String to, String amount, int confirmations) {
        return given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body(transferBody(network, asset, to, amount, confirmations)).when().post("/sandbox/chain/transfers");
    }

    private static String transferBody(String network, String asset, String to, String amount, int confirmations) {
        return "{\"network\":\"" + network + "\",\"asset\":\"" + asset + "\",\"toAddress\":\"" + to
                + "\",\"amount\":\"" + amount + "\",\"confirmations\":" + confirmations + "}";
    }

    private static JsonNode transactionOf(Account account, String merchant, String id) {
        return tree(asApiKey(account, merchant).when().get("/transaction/" + id).then().statusCode(200).extract()
                .asString());
    }
}
