package dev.cryptopay.transaction.quote;

import dev.cryptopay.events.MerchantConfiguration.FeeLine;
import java.math.BigDecimal;

/**
 * What one payment request asks for: the order total in USD plus the customer fee, converted at the locked
 * crypto rate and rounded up to the asset's smallest unit.
 *
 * @param expectedUSD totalUSD + customerFeeUSD, the USD value the customer pays
 * @param assetAmount scale = the asset's decimals
 */
public record Quote(BigDecimal totalUSD, BigDecimal customerFeeUSD, BigDecimal expectedUSD, BigDecimal cryptoFXRate,
        BigDecimal assetAmount) {

    public static Quote of(BigDecimal totalUSD, FeeLine customerFee, BigDecimal cryptoFXRate, int decimals) {
        BigDecimal fee = Money.customerFeeUSD(totalUSD, customerFee);
        BigDecimal expected = Money.usd(totalUSD.add(fee));
        return new Quote(totalUSD, fee, expected, cryptoFXRate, Money.cryptoOwed(expected, cryptoFXRate, decimals));
    }

    /**
     * A follow-up request after funds arrived: it asks for exactly what is still owed ({@code dueUSD}, the
     * customer fee of the first quote included), so two requests add up to the amount; no second fee.
     */
    public static Quote remaining(BigDecimal dueUSD, BigDecimal cryptoFXRate, int decimals) {
        BigDecimal due = Money.usd(dueUSD);
        return new Quote(due, Money.usd(BigDecimal.ZERO), due, cryptoFXRate,
                Money.cryptoOwed(due, cryptoFXRate, decimals));
    }
}
