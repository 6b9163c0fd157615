package dev.cryptopay.transaction.rest;

import static dev.cryptopay.transaction.rest.Fixtures.body;
import static dev.cryptopay.transaction.rest.Fixtures.create;
import static dev.cryptopay.transaction.rest.Fixtures.merchant;
import static dev.cryptopay.transaction.rest.Fixtures.publishable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.MerchantConfiguration;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import java.math.BigDecimal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quotes reuse a rate read from the table for up to a second (docs/decisions.md §75), yet an operator change on this
 * replica applies to the very next quote. The table is also changed behind the service's back here, as another
 * replica's change would look from this one: kept within the second, used after it.
 */
@QuarkusTest
class RateCacheTest {

    @BeforeAll
    static void setUp() {
        Fixtures.configureRestAssured();
    }

    @AfterEach
    void restore() {
        Fixtures.rate("BTC", "50000", null);
    }

    private static BigDecimal quote(MerchantConfiguration m) {
        return new BigDecimal(create(publishable(m), body("100", "USD", "BTC", "bitcoin"))
                .get("assetAmount").asText());
    }

    private static void changeBehindTheServicesBack(String usd) {
        QuarkusTransaction.requiringNew().run(() -> Panache.getEntityManager()
                .createNativeQuery("update exchange_rate set usd = cast(:usd as numeric), as_of = now() "
                        + "where code = 'BTC'")
                .setParameter("usd", usd).executeUpdate());
    }

    @Test
    void aRateIsKeptForASecondButAnOperatorChangeAppliesAtOnce() throws InterruptedException {
        MerchantConfiguration m = merchant(c -> c.allowedCrypto("BTC"));
        Fixtures.rate("BTC", "50000", null);
        long start = System.nanoTime();
        BigDecimal at50k = quote(m);

        changeBehindTheServicesBack("100000");
        BigDecimal kept = quote(m);
        // Only meaningful if both quotes fell within the second the first one's read started it (a slow machine
        // may take longer; then the kept rate has rightly expired and the rest of the test still holds).
        if (System.nanoTime() - start < 900_000_000L) {
            assertEquals(at50k, kept, "within the second the kept rate quotes");
        }
        Thread.sleep(1_100);
        BigDecimal at100k = quote(m);
        assertTrue(close(at100k.multiply(BigDecimal.valueOf(2)), at50k),
                "after the second the table's new rate quotes: " + at50k + " then " + at100k);

        Fixtures.rate("BTC", "25000", null);
        BigDecimal at25k = quote(m);
        assertTrue(close(at25k, at50k.multiply(BigDecimal.valueOf(2))),
                "the operator's change quotes at once: " + at50k + " then " + at25k);
    }

    /** Equal but for the rounding of each quote to the asset's smallest unit (1 satoshi, doubled at most). */
    private static boolean close(BigDecimal a, BigDecimal b) {
        return a.subtract(b).abs().compareTo(new BigDecimal("0.00000002")) <= 0;
    }
}
