package dev.cryptopay.reporting.projection;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The fee terms a transaction's success event carries ({@code merchantFees}: the merchant discount rate and the
 * fee schedule in force when it succeeded), and the fees they give on what the transaction received. The one place
 * of the fee maths (reporting-service README, "Figures"):
 * <ul>
 * <li>MDR fee = receivedUSD × percentage + flatRate (in USD), rounded half-up to the cent;</li>
 * <li>platform fee = receivedUSD × basisPoints ÷ 10,000 + flatCents ÷ 100, rounded half-up to the cent;</li>
 * <li>deducted from the payout: the MDR fee, plus the platform fee unless its collection is {@code bill_separately}.</li>
 * </ul>
 * A flat rate in the transaction's own currency is converted at the transaction's fxRateToUSD; one in any other
 * currency cannot be converted from the event stream and counts as 0 ({@link #flatRateConvertible}).
 */
public record FeeTerms(BigDecimal mdrPercentage, BigDecimal mdrFlatRate, String mdrFlatCurrency,
        String platformCollection, BigDecimal platformBps, BigDecimal platformFlatCents) {

    public static final String BILL_SEPARATELY = "bill_separately";
    public static final String DEDUCT = "deduct";
    public static final FeeTerms NONE = new FeeTerms(null, null, null, null, null, null);
    private static final BigDecimal TEN_THOUSAND = BigDecimal.valueOf(10_000);
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /** The fees of one transaction, in USD, each rounded to the cent. */
    public record Fees(BigDecimal mdrUSD, BigDecimal platformUSD, BigDecimal deductedUSD) {

        public static final Fees ZERO = new Fees(cents(BigDecimal.ZERO), cents(BigDecimal.ZERO),
                cents(BigDecimal.ZERO));

        public BigDecimal totalUSD() {
            return mdrUSD.add(platformUSD);
        }
    }

    /** Reads {@code merchantFees} of a transaction event (null: no terms). */
    public static FeeTerms of(JsonNode merchantFees) {
        if (merchantFees == null || merchantFees.isNull()) {
            return NONE;
        }
        JsonNode mdr = Json.at(merchantFees, "merchantDiscountRate");
        JsonNode platform = Json.at(Json.at(merchantFees, "fees"), "platform");
        JsonNode perTransaction = Json.at(platform, "perTransaction");
        return new FeeTerms(Json.decimal(mdr, "percentage"), Json.decimal(mdr, "flatRate"),
                Json.text(mdr, "flatRateCurrency"), Json.text(platform, "collection"),
                Json.decimal(perTransaction, "basisPoints"), Json.decimal(perTransaction, "flatCents"));
    }

    /** Whether the flat rate can be expressed in USD for a transaction in {@code currency}. */
    public boolean flatRateConvertible(String currency) {
        return mdrFlatRate == null || mdrFlatRate.signum() == 0 || mdrFlatCurrency == null
                || "USD".equals(mdrFlatCurrency) || mdrFlatCurrency.equals(currency);
    }

    /** The fees on {@code receivedUSD} of a successful transaction in {@code currency} at {@code fxRateToUSD}. */
    public Fees on(BigDecimal receivedUSD, String currency, BigDecimal fxRateToUSD) {
        BigDecimal received = receivedUSD == null ? BigDecimal.ZERO : receivedUSD;
        BigDecimal mdr = received.multiply(orZero(mdrPercentage)).add(flatRateUSD(currency, fxRateToUSD));
        BigDecimal platform = received.multiply(orZero(platformBps)).divide(TEN_THOUSAND)
                .add(orZero(platformFlatCents).divide(HUNDRED));
        BigDecimal mdrCents = cents(mdr);
        BigDecimal platformCents = cents(platform);
        BigDecimal deducted = BILL_SEPARATELY.equals(platformCollection) ? mdrCents : mdrCents.add(platformCents);
        return new Fees(mdrCents, platformCents, deducted);
    }

    private BigDecimal flatRateUSD(String currency, BigDecimal fxRateToUSD) {
        if (mdrFlatRate == null || !flatRateConvertible(currency)) {
            return BigDecimal.ZERO;
        }
        if (mdrFlatCurrency == null || "USD".equals(mdrFlatCurrency)) {
            return mdrFlatRate;
        }
        return fxRateToUSD == null ? BigDecimal.ZERO : mdrFlatRate.multiply(fxRateToUSD);
    }

    static BigDecimal cents(BigDecimal value) {
        return value.setScale(2, RoundingMode.HALF_UP);
    }

    private static BigDecimal orZero(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value;
    }
}
