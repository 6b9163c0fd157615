package dev.cryptopay.transaction.quote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.MerchantConfiguration.FeeLine;
import dev.cryptopay.support.catalogue.Catalogue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MoneyTest {

    @ParameterizedTest(name = "{0} USD at {1} USD/unit with {2} decimals -> {3}")
    @CsvSource({
            // exact quotients stay exact
            "100.00, 50000, 8, 0.00200000",
            "65.00, 65000, 8, 0.00100000",
            // anything beyond the smallest unit rounds UP, however small
            "100.00, 30000, 8, 0.00333334",
            "0.01, 65000, 8, 0.00000016",
            "1.00, 3, 6, 0.333334",
            "10.00, 3200, 18, 0.003125000000000000",
            "10.00, 3300, 18, 0.003030303030303031",
            "1.000001, 1, 6, 1.000001",
            "1.0000001, 1, 6, 1.000001",
    })
    void cryptoOwedRoundsUpToTheSmallestUnit(String usd, String rate, int decimals, String expected) {
        BigDecimal owed = Money.cryptoOwed(new BigDecimal(usd), new BigDecimal(rate), decimals);
        assertEquals(expected, owed.toPlainString());
        assertEquals(decimals, owed.scale());
    }

    @Test
    void theCustomerFeeIsBasisPointsOfTheTotalPlusFlatCentsRoundedUpToTheCent() {
        assertEquals("0.00", Money.customerFeeUSD(new BigDecimal("100.00"), null).toPlainString());
        assertEquals("1.50", Money.customerFeeUSD(new BigDecimal("100.00"),
                new FeeLine(new BigDecimal("100"), new BigDecimal("50"))).toPlainString());
        // 1 bp of 33.33 = 0.003333 → 0.01
        assertEquals("0.01", Money.customerFeeUSD(new BigDecimal("33.33"),
                new FeeLine(BigDecimal.ONE, null)).toPlainString());
        assertEquals("0.25", Money.customerFeeUSD(new BigDecimal("33.33"),
                new FeeLine(null, new BigDecimal("25"))).toPlainString());
    }

    @Test
    void usdTotalsAreExactProductsWrittenWithAtLeastCents() {
        assertEquals("108.00", Money.totalUSD(new BigDecimal("100.00"), new BigDecimal("1.08")).toPlainString());
        assertEquals("8.2678", Money.totalUSD(new BigDecimal("1234"), new BigDecimal("0.0067")).toPlainString());
        assertEquals("100.00", Money.usd(new BigDecimal("1E+2")).toPlainString());
    }

    @Test
    void smallestUnitsAreWholeNumbers() {
        assertEquals(new BigInteger("3125000000000000"), Money.smallestUnits(new BigDecimal("0.003125000000000000"), 18));
        assertEquals(new BigInteger("200000"), Money.smallestUnits(new BigDecimal("0.00200000"), 8));
        assertEquals(new BigInteger("1000001"), Money.smallestUnits(new BigDecimal("1.000001"), 6));
    }

    /**
     * Property: over random amounts, currencies, fees, rates and assets, the quote covers what is due and one
     * smallest unit less would not: assetAmount × rate ≥ totalUSD + fee > (assetAmount − 1 unit) × rate; the
     * amount has exactly the asset's decimals and is written without an exponent.
     */
    @Test
    void quotesAlwaysCoverTheDueAmountByLessThanOneUnit() {
        Random random = new Random(20261121L);
        List<Catalogue.Asset> assets = Catalogue.get().assets();
        List<String> currencies = List.of("USD", "EUR", "JPY", "GBP", "CHF", "BHD", "SGD");
        for (int i = 0; i < 20_000; i++) {
            String currency = currencies.get(random.nextInt(currencies.size()));
            int digits = Currency.getInstance(currency).getDefaultFractionDigits();
            BigDecimal totalLocal = BigDecimal.valueOf(1 + (long) (random.nextDouble() * Math.pow(10, 1 + random.nextInt(11))),
                    digits).max(BigDecimal.ONE.movePointLeft(digits)).min(Money.MAX_AMOUNT);
            BigDecimal fx = BigDecimal.valueOf(1 + random.nextInt(2_000_000), 1 + random.nextInt(6));
            BigDecimal totalUSD = Money.totalUSD(totalLocal, fx);
            FeeLine fee = random.nextBoolean() ? null
                    : new FeeLine(BigDecimal.valueOf(random.nextInt(500)), BigDecimal.valueOf(random.nextInt(300)));
            Catalogue.Asset asset = assets.get(random.nextInt(assets.size()));
            BigDecimal rate = BigDecimal.valueOf(1 + random.nextLong(10_000_000_000L), random.nextInt(9));

            Quote quote = Quote.of(totalUSD, fee, rate, asset.decimals());
            BigDecimal due = totalUSD.add(quote.customerFeeUSD());
            BigDecimal amount = quote.assetAmount();
            String context = totalLocal + " " + currency + " @" + fx + " fee " + fee + " -> " + asset.code() + " @" + rate;
            assertEquals(0, quote.expectedUSD().compareTo(due), context);
            assertEquals(asset.decimals(), amount.scale(), context);
            assertTrue(amount.multiply(rate).compareTo(due) >= 0, context);
            assertTrue(amount.subtract(Money.oneUnit(asset.decimals())).multiply(rate).compareTo(due) < 0, context);
            String plain = Money.plain(amount);
            assertFalse(plain.contains("E") || plain.contains("e"), plain);
            assertEquals(0, quote.customerFeeUSD().compareTo(quote.customerFeeUSD().setScale(2, RoundingMode.UNNECESSARY)));
        }
    }
}
