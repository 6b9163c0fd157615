package dev.cryptopay.merchant.rest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.events.MerchantConfiguration.FeeSchedule;
import dev.cryptopay.merchant.domain.Settings.CanSet;
import dev.cryptopay.merchant.domain.Settings.CheckoutConfig;
import dev.cryptopay.merchant.domain.Settings.Inherit;
import dev.cryptopay.merchant.domain.Settings.WalletConfig;
import dev.cryptopay.support.paging.PageMetadata;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** Request and response bodies of the merchant endpoints, named exactly as the interface document names them. */
public final class MerchantDtos {

    private MerchantDtos() {
    }

    /** {@code merchantDiscountRate} as written in requests. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DiscountRateIn(BigDecimal percentage, BigDecimal flatRate, String flatRateCurrency) {
    }

    /** {@code merchantDiscountRate} as answered. */
    public record DiscountRateOut(BigDecimal Percentage, BigDecimal FlatRate, String FlatRateCurrency) {
    }

    /** One asset's confirmations and QR lifetime as written in requests (all three required). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AssetConfigIn(Integer minConfirmsLow, Integer minConfirmsHigh, Integer qrExpirationSeconds) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NetworkConfigIn(Map<String, AssetConfigIn> cryptoAssetConfigs) {
    }

    /** The network configuration as answered: network → {@code cryptoAssetConfigs} → asset → values. */
    public record NetworkConfigOut(Map<String, AssetNetworkConfig> cryptoAssetConfigs) {
    }

    /**
     * Create and update body. Create takes the fields the document lists for it; update (a full replacement)
     * also takes {@code allowedCrypto} (comma-separated), {@code cancelTransactionEnabled} and {@code feeConfig},
     * and ignores {@code externalMID}.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record MerchantRequest(
            String name,
            String dba,
            String address1,
            String address2,
            String city,
            String region,
            String country,
            DiscountRateIn merchantDiscountRate,
            String externalMID,
            String logoFilename,
            BigDecimal highThreshold,
            Boolean kycEnabled,
            BigDecimal kycThreshold,
            BigDecimal kycThresholdCustodial,
            Integer refundWindowHours,
            List<String> allowedWallets,
            List<WalletConfig> allowedWalletsConfig,
            Map<String, NetworkConfigIn> cryptoNetworkConfigs,
            Map<String, BigDecimal> travelRulesRegionalThreshold,
            Map<String, BigDecimal> travelRulesRegionalThresholdCustodial,
            CheckoutConfig checkoutConfig,
            Inherit inherit,
            CanSet canSet,
            String allowedCrypto,
            Boolean cancelTransactionEnabled,
            FeeSchedule feeConfig) {
    }

    /** The full Merchant object: every field of the Merchant table plus the echoed configuration settings. */
    public record MerchantView(
            String createdAt,
            String updatedAt,
            String UUID,
            String name,
            String dba,
            String address1,
            String address2,
            String city,
            String region,
            String country,
            int status,
            String descriptor,
            String accountID,
            String externalMID,
            DiscountRateOut merchantDiscountRate,
            List<String> allowedCrypto,
            List<String> allowedWallets,
            List<WalletConfig> allowedWalletsConfig,
            CheckoutConfig checkoutConfig,
            Map<String, NetworkConfigOut> cryptoNetworkConfigs,
            FeeSchedule feeConfig,
            Inherit inherit,
            CanSet canSet,
            Boolean kycEnabled,
            BigDecimal kycThreshold,
            BigDecimal kycThresholdCustodial,
            BigDecimal highThreshold,
            Integer refundWindowHours,
            Map<String, BigDecimal> travelRulesRegionalThreshold,
            Map<String, BigDecimal> travelRulesRegionalThresholdCustodial,
            Boolean cancelTransactionEnabled,
            String logoFilename) {
    }

    public record MerchantList(List<MerchantView> merchants, PageMetadata metadata) {
    }

    /** Answer of the logo upload: the stored name and the stable URL it is served at. */
    public record LogoUploaded(String logoFilename, String logoURL) {
    }
}
