package dev.cryptopay.merchant.domain;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.events.MerchantConfiguration.FeeSchedule;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The configuration value objects shared by accounts and merchants (interface document, "Configuration
 * settings"), stored as JSON documents. Field names are the API's, so they serialize as documented.
 */
public final class Settings {

    private Settings() {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record WalletConfig(String name, Boolean isFeatured, String featuredNote, Integer order) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Theme(String primaryColor, String accentColor, String backgroundColor, String textColor) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Fonts(String family, String familyURL) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Flow(Boolean hideNoWalletOption, Boolean showApprovalPage, Boolean skipConfirmationPage) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CheckoutConfig(String logoURL, String termNotice, Theme theme, Fonts fonts, Flow flow) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Support(String email, String link) {
    }

    /** Which settings a merchant takes from its account (absent = false). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Inherit(Boolean inheritCheckoutConfig, Boolean inheritAllowedWallets,
            Boolean inheritCryptoNetworkConfigs, Boolean inheritDefaultRecommendedNetwork,
            Boolean inheritHighThreshold, Boolean inheritKYCEnabled, Boolean inheritKYCThreshold,
            Boolean inheritRefundWindowHours, Boolean inheritSettlement, Boolean inheritTravelRulesRegionalThreshold,
            Boolean inheritPlatformFees, Boolean inheritPartnerFees) {
    }

    /** Which settings a merchant may override (absent = true). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CanSet(Boolean canSetCheckoutConfig, Boolean canSetAllowedWallets,
            Boolean canSetCryptoNetworkConfigs, Boolean canSetDefaultRecommendedNetwork, Boolean canSetHighThreshold,
            Boolean canSetKYCEnabled, Boolean canSetKYCThreshold, Boolean canSetRefundWindowHours,
            Boolean canSetSettlement, Boolean canSetTravelRulesRegionalThreshold) {
    }

    /** Automatic refund switches, set by the operator. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AutoRefundConfig(Boolean aml, Boolean fraud, Boolean sanction, Boolean overpayment,
            Boolean vendorStatus) {
    }

    /** The operator's processing fee for the account. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProcessingFeeConfig(BigDecimal basisPoints, BigDecimal flatCents) {
    }

    /** Everything an account configures; the operator-only fields are marked. Absent values are null. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AccountSettings(
            List<String> allowedCrypto,
            List<String> allowedWallets,
            List<WalletConfig> allowedWalletsConfig,
            CheckoutConfig checkoutConfig,
            Map<String, Map<String, AssetNetworkConfig>> cryptoNetworkConfigs,
            BigDecimal highThreshold,
            Integer refundWindowHours,
            Support support,
            FeeSchedule fees,
            // billing schedule: fee fields (numbers) and date fields (YYYY-MM-DD), by their API names
            Map<String, BigDecimal> billingFees,
            Map<String, String> billingDates,
            // operator-only:
            Map<String, String> addressProvider,
            AutoRefundConfig autoRefundConfig,
            String defaultRecommendedNetwork,
            ProcessingFeeConfig processingFeeConfig,
            String settlementAnchor,
            String settlementFrequency,
            Boolean subscriptionsEmailCustomerOnPaymentFailed,
            Boolean subscriptionsEmailMerchantOnPaymentAttemptsExceeded) {

        public static AccountSettings empty() {
            return new AccountSettings(null, null, null, null, null, null, null, null, null, Map.of(), Map.of(), Map.of(),
                    null, null, null, null, null, null, null);
        }
    }

    /** What a merchant configures itself (echoed in merchant responses as stored, not as effective). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record MerchantSettings(
            List<String> allowedCrypto,
            List<String> allowedWallets,
            List<WalletConfig> allowedWalletsConfig,
            CheckoutConfig checkoutConfig,
            Map<String, Map<String, AssetNetworkConfig>> cryptoNetworkConfigs,
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
            Boolean cancelTransactionEnabled) {
    }
}
