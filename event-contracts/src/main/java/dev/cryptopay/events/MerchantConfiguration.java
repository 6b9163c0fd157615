package dev.cryptopay.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Data of {@link EventTypes#MERCHANT_UPDATED} on the compacted {@link Topics#MERCHANTS} topic: one merchant's
 * <em>effective</em> configuration, with account inheritance and {@code canSet} already resolved
 * (docs/decisions.md §11), so consumers never re-implement the rules. Amounts are exact decimals (JSON numbers).
 *
 * @param status                 0 under review, 1 enabled, -1 disabled/archived
 * @param fxRateAllowed          the operator allowed this merchant to set {@code fxRate} on transactions
 * @param allowedCrypto          asset codes the merchant accepts
 * @param cryptoNetworkConfigs   network → asset → confirmations and QR lifetime, for every accepted pair
 * @param xpubs                  network → extended public key addresses are derived from (addressProvider)
 * @param version                grows with every change of the merchant or its account
 * @param accountEmail           the owning account's e-mail (where merchant notices of subscriptions go); may be null
 * @param subscriptionsEmailCustomerOnPaymentFailed            the account's switch: e-mail the customer when a
 *                               subscription payment attempt fails (null: not set, treated as off)
 * @param subscriptionsEmailMerchantOnPaymentAttemptsExceeded  the account's switch: e-mail the account when a
 *                               subscription payment has used all its attempts (null: not set, treated as off)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MerchantConfiguration(
        String merchantId,
        String accountId,
        String externalMID,
        String name,
        String dba,
        String descriptor,
        String country,
        String region,
        int status,
        boolean fxRateAllowed,
        List<String> allowedCrypto,
        List<String> allowedWallets,
        Map<String, Map<String, AssetNetworkConfig>> cryptoNetworkConfigs,
        BigDecimal highThreshold,
        boolean kycEnabled,
        BigDecimal kycThreshold,
        BigDecimal kycThresholdCustodial,
        Map<String, BigDecimal> travelRulesRegionalThreshold,
        Map<String, BigDecimal> travelRulesRegionalThresholdCustodial,
        Integer refundWindowHours,
        boolean cancelTransactionEnabled,
        FeeSchedule fees,
        DiscountRate merchantDiscountRate,
        Map<String, String> xpubs,
        Map<String, Boolean> autoRefundConfig,
        String defaultRecommendedNetwork,
        String settlementFrequency,
        String settlementAnchor,
        long version,
        String updatedAt,
        String accountEmail,
        Boolean subscriptionsEmailCustomerOnPaymentFailed,
        Boolean subscriptionsEmailMerchantOnPaymentAttemptsExceeded) {

    public static final int UNDER_REVIEW = 0;
    public static final int ENABLED = 1;
    public static final int DISABLED = -1;

    /** The configuration without the account's e-mail fields (added later; kept for existing callers). */
    public MerchantConfiguration(String merchantId, String accountId, String externalMID, String name, String dba,
            String descriptor, String country, String region, int status, boolean fxRateAllowed,
            List<String> allowedCrypto, List<String> allowedWallets,
            Map<String, Map<String, AssetNetworkConfig>> cryptoNetworkConfigs, BigDecimal highThreshold,
            boolean kycEnabled, BigDecimal kycThreshold, BigDecimal kycThresholdCustodial,
            Map<String, BigDecimal> travelRulesRegionalThreshold,
            Map<String, BigDecimal> travelRulesRegionalThresholdCustodial, Integer refundWindowHours,
            boolean cancelTransactionEnabled, FeeSchedule fees, DiscountRate merchantDiscountRate,
            Map<String, String> xpubs, Map<String, Boolean> autoRefundConfig, String defaultRecommendedNetwork,
            String settlementFrequency, String settlementAnchor, long version, String updatedAt) {
        this(merchantId, accountId, externalMID, name, dba, descriptor, country, region, status, fxRateAllowed,
                allowedCrypto, allowedWallets, cryptoNetworkConfigs, highThreshold, kycEnabled, kycThreshold,
                kycThresholdCustodial, travelRulesRegionalThreshold, travelRulesRegionalThresholdCustodial,
                refundWindowHours, cancelTransactionEnabled, fees, merchantDiscountRate, xpubs, autoRefundConfig,
                defaultRecommendedNetwork, settlementFrequency, settlementAnchor, version, updatedAt, null, null,
                null);
    }

    /** Confirmations and QR lifetime for one asset on one network. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AssetNetworkConfig(int minConfirmsLow, int minConfirmsHigh, int qrExpirationSeconds) {
    }

    /** {@code basisPoints} and {@code flatCents} of one fee line. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record FeeLine(BigDecimal basisPoints, BigDecimal flatCents) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PlatformSplit(BigDecimal platformShareBps, String partnerID) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PlatformFees(String collection, FeeLine perTransaction, FeeLine perSettlement, PlatformSplit split) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PartnerFees(FeeLine customer, FeeLine mdr) {
    }

    /** The fee schedule: {@code feeConfig} on a merchant, {@code fees} on an account. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record FeeSchedule(PlatformFees platform, PartnerFees partner) {
    }

    /** {@code percentage} is a fraction (0.025 = 2.5 %); {@code flatRate} is in {@code flatRateCurrency}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DiscountRate(BigDecimal percentage, BigDecimal flatRate, String flatRateCurrency) {
    }
}
