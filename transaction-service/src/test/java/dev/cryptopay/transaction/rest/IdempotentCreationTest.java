package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.paid;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.testing.TestTokens;
import dev.cryptopay.transaction.domain.Refund;
import dev.cryptopay.transaction.domain.Transaction;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The creations that move money honour Idempotency-Key in transaction-service too, in their own database transaction
 * (docs/decisions.md §112), for the requests whose answer the gateway lost: these tests call the service directly,
 * as such a retry reaches it once the gateway has freed the key.
 */
@QuarkusTest
class IdempotentCreationTest {

    private MerchantConfiguration m;
    private String token;

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @BeforeEach
    void aMerchantAndOneApiKey() {
        Fixtures.rate("BTC", "50000", null);
        m = merchant(c -> c.minConfirms(1, 1).allowedCrypto("BTC"));
        token = apiKeyToken(m);
    }

    @Test
    void aRetryGetsTheFirstTransactionAndCreatesNoOther() {
        String reference = "idem-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();

        ExtractableResponse<Response> first = create(token, key, body(reference, "BTC"));
        ExtractableResponse<Response> again = create(token, key, body(reference, "BTC"));

        assertEquals(201, first.statusCode());
        assertEquals(201, again.statusCode());
        assertNull(first.header("Idempotent-Replayed"));
        assertEquals("true", again.header("Idempotent-Replayed"));
        JsonNode firstAnswer = Fixtures.tree(first.asString());
        assertEquals(firstAnswer, Fixtures.tree(again.asString()), "the first answer, field for field");
        assertEquals(first.asString(), again.asString(), "byte for byte: every decimal keeps its scale");
        assertEquals(1, transactionsWith(reference));
    }

    @Test
    void anotherRequestUnderTheSameKeyIs422() {
        String reference = "idem-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();
        assertEquals(201, create(token, key, body(reference, "BTC")).statusCode());

        ExtractableResponse<Response> other = create(token, key, body(reference + "-other", "BTC"));

        assertEquals(422, other.statusCode());
        assertEquals("idempotency_key_reused", other.path("code"));
        assertEquals(1, transactionsWith(reference));
        assertEquals(0, transactionsWith(reference + "-other"));
    }

    @Test
    void aMalformedKeyIs400AndCreatesNothing() {
        String reference = "idem-" + UUID.randomUUID();

        ExtractableResponse<Response> spaced = create(token, "two words", body(reference, "BTC"));
        ExtractableResponse<Response> tooLong = create(token, "k".repeat(256), body(reference, "BTC"));

        for (ExtractableResponse<Response> refused : List.of(spaced, tooLong)) {
            assertEquals(400, refused.statusCode(), refused.asString());
            assertEquals("application/problem+json", refused.contentType());
            assertEquals("Idempotency-Key", refused.path("errors[0].field"));
        }
        assertEquals(0, transactionsWith(reference));
    }

    @Test
    void anotherKeyOrAnotherCallerCreatesAnew() {
        String reference = "idem-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();

        String first = create(token, key, body(reference, "BTC")).path("transactionId");
        String otherKey = create(token, "key-" + UUID.randomUUID(), body(reference, "BTC")).path("transactionId");
        String otherCaller = create(apiKeyToken(m), key, body(reference, "BTC")).path("transactionId");

        assertEquals(3, Set.of(first, otherKey, otherCaller).size());
        assertEquals(3, transactionsWith(reference));
    }

    @Test
    void aCreationThatFailedLeavesTheKeyFree() {
        String reference = "idem-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();

        // The merchant does not accept ETH: refused inside the creation, after the key was claimed.
        ExtractableResponse<Response> refused = create(token, key, body(reference, "ETH"));
        assertEquals(400, refused.statusCode(), refused.asString());
        ExtractableResponse<Response> next = create(token, key, body(reference, "BTC"));

        assertEquals(201, next.statusCode());
        assertNull(next.header("Idempotent-Replayed"), "nothing was kept of the refused request");
        assertEquals(1, transactionsWith(reference));
    }

    @Test
    void retriesAtTheSameMomentWaitForTheFirstAndGetItsAnswer() throws Exception {
        String reference = "idem-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Callable<ExtractableResponse<Response>>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            calls.add(() -> create(token, key, body(reference, "BTC")));
        }
        List<ExtractableResponse<Response>> answers = new ArrayList<>();
        for (Future<ExtractableResponse<Response>> answer : pool.invokeAll(calls)) {
            answers.add(answer.get());
        }
        pool.shutdown();

        assertEquals(Set.of(201), answers.stream().map(ExtractableResponse::statusCode).collect(Collectors.toSet()));
        assertEquals(1, answers.stream().map(a -> a.<String>path("transactionId")).distinct().count());
        assertEquals(5, answers.stream().filter(a -> "true".equals(a.header("Idempotent-Replayed"))).count());
        assertEquals(1, transactionsWith(reference));
    }

    @Test
    void aRetriedRefundPaysOnce() {
        String id = paid(m, "100");
        String key = "refund-" + UUID.randomUUID();

        ExtractableResponse<Response> first = refund(id, key, "{\"amount\":30}");
        ExtractableResponse<Response> again = refund(id, key, "{\"amount\":30}");
        ExtractableResponse<Response> another = refund(id, "refund-" + UUID.randomUUID(), "{\"amount\":30}");

        assertEquals(201, first.statusCode(), first.asString());
        assertEquals(201, again.statusCode());
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(Fixtures.tree(first.asString()), Fixtures.tree(again.asString()));
        assertEquals(first.asString(), again.asString(), "byte for byte: every decimal keeps its scale");
        assertEquals(201, another.statusCode(), "another key is another refund");
        assertNotEquals(first.<String>path("[0].refundID"), another.<String>path("[0].refundID"));
        long legs = QuarkusTransaction.requiringNew().call(() -> Refund.count("transactionId", UUID.fromString(id)));
        assertEquals(2, legs, "the retry paid nothing more");
    }

    private static String apiKeyToken(MerchantConfiguration merchant) {
        return TestTokens.claims("ak-" + UUID.randomUUID(), "api", IdentityClaims.ROLE_ADMIN,
                UUID.fromString(merchant.accountId())).claim(IdentityClaims.MERCHANT_REF, merchant.merchantId())
                .sign(TestTokens.key());
    }

    private static String body(String reference, String asset) {
        return "{\"amount\":100,\"amountCurrency\":\"USD\",\"asset\":\"" + asset + "\",\"network\":\""
                + ("BTC".equals(asset) ? "bitcoin" : "ethereum") + "\",\"referenceNumber\":\"" + reference + "\"}";
    }

    private static ExtractableResponse<Response> create(String token, String key, String body) {
        return given().auth().oauth2(token).header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .when().post("/transaction").then().extract();
    }

    private ExtractableResponse<Response> refund(String transactionId, String key, String body) {
        return given().auth().oauth2(token).header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .when().post("/account/" + m.accountId() + "/transaction/" + transactionId + "/refund").then()
                .extract();
    }

    private static long transactionsWith(String reference) {
        return QuarkusTransaction.requiringNew().call(() -> Transaction.count("referenceNumber", reference));
    }
}
