package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.await;
import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static dev.cryptopay.transaction.rest.Fixtures.transfer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.transaction.domain.MerchantView;
import dev.cryptopay.transaction.service.TestConfigurations;
import io.quarkus.arc.Arc;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A merchant the merchants topic has not brought yet (created a moment ago; the topic lags): its first creation reads
 * the configuration from merchant-service — here a stand-in HTTP server on the port the test profile names — and
 * stores it in the view, so the transaction is detected and settled under that configuration however long the topic
 * lags (docs/decisions.md §20, §84). Before, the read served the creation only and a payment settled while the view
 * still lacked the merchant was settled under no configuration: every autoRefundConfig switch off, no fees.
 */
@QuarkusTest
class MerchantFirstReadTest {

    /** quarkus.rest-client.merchant-configuration.url of the test profile. */
    private static final int MERCHANT_SERVICE_PORT = 9081;
    private static final String PATH = "/internal/merchants/";

    private static final Map<String, MerchantConfiguration> MERCHANT_SERVICE = new ConcurrentHashMap<>();
    private static final List<String> READS = new CopyOnWriteArrayList<>();
    private static HttpServer merchantService;

    @BeforeAll
    static void setUp() throws Exception {
        Fixtures.configureRestAssured();
        ObjectMapper mapper = Arc.container().instance(ObjectMapper.class).get();
        merchantService = Arc.container().instance(Vertx.class).get().createHttpServer().requestHandler(request -> {
            String path = request.path();
            String id = path.startsWith(PATH) && path.endsWith("/configuration")
                    ? path.substring(PATH.length(), path.length() - "/configuration".length())
                    : "";
            MerchantConfiguration config = MERCHANT_SERVICE.get(id);
            String bearer = request.getHeader("Authorization");
            if (config == null || bearer == null || !bearer.startsWith("Bearer ")) {
                request.response().setStatusCode(404).end();
                return;
            }
            READS.add(id);
            try {
                request.response().putHeader("Content-Type", "application/json").end(mapper.writeValueAsString(config));
            } catch (Exception e) {
                request.response().setStatusCode(500).end();
            }
        }).listen(MERCHANT_SERVICE_PORT).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (merchantService != null) {
            merchantService.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMerchantReadFromMerchantServiceIsStoredAndItsPaymentsSettleUnderItsConfiguration() {
        Fixtures.rate("USDC", "1", null);
        // never published on the topic: only merchant-service knows it
        MerchantConfiguration m = TestConfigurations.merchant(c -> c.minConfirms(1, 1).version(3)
                .autoRefund(Map.of("overpayment", true)));
        MERCHANT_SERVICE.put(m.merchantId(), m);
        UUID merchantId = UUID.fromString(m.merchantId());
        assertFalse(QuarkusTransaction.requiringNew().call(() -> MerchantView.findByIdOptional(merchantId).isPresent()));

        JsonNode created = create(publishable(m), body("100", "USD", "USDC", "polygon"));
        assertEquals(List.of(m.merchantId()), READS, "the creation read the merchant once from merchant-service");
        QuarkusTransaction.requiringNew().run(() -> {
            MerchantView view = MerchantView.findById(merchantId);
            assertNotNull(view, "the read is stored in the view with the creation");
            assertEquals(3, view.version);
            assertEquals(m, view.config);
        });

        // settled under the configuration read: the overpayment succeeds (switch on) instead of being held
        String id = created.get("transactionId").asText();
        transfer(m, "polygon", "USDC", created.get("address").asText(), "150", 1);
        JsonNode paid = await(m, id, tx -> tx.get("status").asInt() == 1);
        assertEquals(4, paid.get("paymentStatus").asInt());
        assertFalse(paid.at("/compliance/heldForReview").asBoolean());
        assertEquals(0, new BigDecimal("150").compareTo(paid.get("amounts").get("receivedUSD").decimalValue()));

        // the next creation finds the merchant in the view: no second read
        create(publishable(m), body("10", "USD", "USDC", "polygon"));
        assertEquals(1, READS.size(), READS.toString());
    }
}
