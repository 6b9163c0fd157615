package dev.cryptopay.transaction.quote;

import dev.cryptopay.events.MerchantConfiguration.FeeLine;
import dev.cryptopay.support.validation.Validation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * The money rules of transactions (docs/transactions.md), exact decimals only:
 * <ul>
 * <li>{@code totalUSD = totalLocal × fxRateToUSD}, exact;</li>
 * <li>{@code customerFeeUSD = totalUSD × basisPoints ÷ 10 000 + flatCents ÷ 100}, rounded up to the cent;</li>
 * <li>{@code assetAmount = (totalUSD + customerFeeUSD) ÷ cryptoFXRate}, rounded up to the asset's smallest unit.</li>
 * </ul>
 */
public final class Money {

    /** Amounts are > 0 and at most this (docs/decisions.md §1). */
    public static final BigDecimal MAX_AMOUNT = new BigDecimal("1000000000000");

    /** Adds to {@code v} when {@code value} is not an amount: > 0 and at most 1,000,000,000,000 (docs/decisions.md §1). */
    public static void checkAmount(Validation v, String field, BigDecimal value) {
        if (value != null && (value.signum() <= 0 || value.compareTo(MAX_AMOUNT) > 0)) {
            v.add(field, "must be greater than 0 and at most 1000000000000");
        }
    }
    private static final BigDecimal BASIS_POINTS = new BigDecimal("10000");
    private static final BigDecimal CENTS = new BigDecimal("100");

    private Money() {
    }

    public static BigDecimal totalUSD(BigDecimal totalLocal, BigDecimal fxRateToUSD) {
        return usd(totalLocal.multiply(fxRateToUSD));
    }

    /** The partner's customer fee (fees.partner.customer) on top of the total; zero without one. */
    public static BigDecimal customerFeeUSD(BigDecimal totalUSD, FeeLine customerFee) {
        if (customerFee == null) {
            return usd(BigDecimal.ZERO);
        }
        BigDecimal fee = BigDecimal.ZERO;
        if (customerFee.basisPoints() != null) {
            fee = fee.add(totalUSD.multiply(customerFee.basisPoints()).divide(BASIS_POINTS));
        }
        if (customerFee.flatCents() != null) {
            fee = fee.add(customerFee.flatCents().divide(CENTS));
        }
        return usd(fee.max(BigDecimal.ZERO).setScale(2, RoundingMode.CEILING));
    }

    /** What the customer owes in the asset: {@code usdDue ÷ cryptoFXRate}, rounded up to {@code decimals}. */
    public static BigDecimal cryptoOwed(BigDecimal usdDue, BigDecimal cryptoFXRate, int decimals) {
        return usdDue.divide(cryptoFXRate, decimals, RoundingMode.CEILING);
    }

    /** The amount in the asset's smallest units (satoshi, wei, 10⁻⁶ USDC); exact. */
    public static BigInteger smallestUnits(BigDecimal amount, int decimals) {
        return amount.movePointRight(decimals).setScale(0, RoundingMode.UNNECESSARY).toBigIntegerExact();
    }

    /** One smallest unit of an asset with {@code decimals} decimals. */
    public static BigDecimal oneUnit(int decimals) {
        return BigDecimal.ONE.movePointLeft(decimals);
    }

    /** A USD amount without superfluous trailing zeros but with at least cents: 108.0000 → 108.00, 8.2678 stays. */
    public static BigDecimal usd(BigDecimal amount) {
        BigDecimal stripped = amount.stripTrailingZeros();
        return stripped.scale() < 2 ? stripped.setScale(2, RoundingMode.UNNECESSARY) : stripped;
    }

    /** A decimal written plainly, never with an exponent. */
    public static String plain(BigDecimal amount) {
        return amount.toPlainString();
    }
}
