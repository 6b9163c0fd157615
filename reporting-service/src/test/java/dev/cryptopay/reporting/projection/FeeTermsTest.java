package dev.cryptopay.reporting.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cryptopay.reporting.testing.Events;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Known answers of the fee maths (README "Figures"). */
class FeeTermsTest {

    @Test
    void mdrAndPlatformFeesDeductedByDefault() {
        FeeTerms terms = FeeTerms.of(Events.fees("0.025", "0.30", "deduct", "50", "10"));
        FeeTerms.Fees fees = terms.on(new BigDecimal("100.00"), "USD", BigDecimal.ONE);
        assertEquals(new BigDecimal("2.80"), fees.mdrUSD());
        assertEquals(new BigDecimal("0.60"), fees.platformUSD());
        assertEquals(new BigDecimal("3.40"), fees.deductedUSD());
        assertEquals(new BigDecimal("3.40"), fees.totalUSD());
    }

    @Test
    void billedSeparatelyIsReportedButNotDeducted() {
        FeeTerms terms = FeeTerms.of(Events.fees("0.029", "0.30", "bill_separately", "100", "25"));
        FeeTerms.Fees fees = terms.on(new BigDecimal("250.555"), "USD", BigDecimal.ONE);
        assertEquals(new BigDecimal("7.57"), fees.mdrUSD());       // 7.266095 + 0.30 = 7.566095
        assertEquals(new BigDecimal("2.76"), fees.platformUSD());  // 2.50555 + 0.25 = 2.75555
        assertEquals(new BigDecimal("7.57"), fees.deductedUSD());
        assertEquals(new BigDecimal("10.33"), fees.totalUSD());
    }

    @Test
    void halfACentRoundsUpAndHugeAmountsStayExact() {
        FeeTerms terms = FeeTerms.of(Events.fees("0.01", "0", "deduct", "0", "0"));
        assertEquals(new BigDecimal("0.01"), terms.on(new BigDecimal("0.5"), "USD", BigDecimal.ONE).mdrUSD());
        assertEquals(new BigDecimal("0.00"), terms.on(new BigDecimal("0.49"), "USD", BigDecimal.ONE).mdrUSD());
        assertEquals(new BigDecimal("1234567890123456789.01"),
                terms.on(new BigDecimal("123456789012345678901.234567"), "USD", BigDecimal.ONE).mdrUSD());
    }

    @Test
    void aFlatRateInTheTransactionCurrencyIsConvertedAtItsRate() {
        var node = Events.fees("0", "0.30", "deduct", "0", "0");
        ((com.fasterxml.jackson.databind.node.ObjectNode) node.get("merchantDiscountRate"))
                .put("flatRateCurrency", "EUR");
        FeeTerms terms = FeeTerms.of(node);
        assertEquals(new BigDecimal("0.33"), terms.on(new BigDecimal("10"), "EUR", new BigDecimal("1.10")).mdrUSD());
        assertFalse(terms.flatRateConvertible("GBP"));
        assertEquals(new BigDecimal("0.00"), terms.on(new BigDecimal("10"), "GBP", new BigDecimal("1.27")).mdrUSD());
    }

    @Test
    void noTermsNoFees() {
        assertEquals(FeeTerms.Fees.ZERO, FeeTerms.of(null).on(new BigDecimal("99.99"), "USD", BigDecimal.ONE));
    }
}
