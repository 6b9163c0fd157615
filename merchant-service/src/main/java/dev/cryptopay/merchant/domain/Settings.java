package dev.cryptopay.merchant.domain;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.events.MerchantConfiguration.FeeSchedule;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration settings of accounts and merchants (interface document, "Configuration settings"), each record
 * written once (docs/decisions.md §35): the same record is the request body, the answer and the stored JSON document,
 * so its field names are the API's. Absent values are null. The rules a value must follow are in the record's
 * validator in the service layer ({@code MerchantSettingsValidator}, {@code AccountSettingsValidator},
 * {@code SettingsRules}); adding a setting means adding a component here and its check there
 * (merchant-service/README.md, "Adding a setting").
 *
 * <p>Every record ignores fields it does not know when read, so stored documents survive a removed setting; the
 * account configuration's own endpoint refuses unknown fields by name ({@link SettingsFields}).
 */
public final class Settings {

    private Settings() {
    }

    /** Marks a component of {@link AccountSettings} that only the service operator sets (read-only to merchants). */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.RECORD_COMPONENT)
    public @interface OperatorOnly {
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

    /** One asset's confirmations and QR lifetime on one network (all three required when written). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AssetConfig(Integer minConfirmsLow, Integer minConfirmsHigh, Integer qrExpirationSeconds) {
    }

    /** {@code cryptoNetworkConfigs.<network>}: asset code → its confirmations and QR lifetime. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NetworkConfig(Map<String, AssetConfig> cryptoAssetConfigs) {

        /**
         * network → asset → values, as the merchants topic carries them; entries missing a value (never stored: the
         * validator requires all three) are left out.
         */
        public static Map<String, Map<String, AssetNetworkConfig>> byAsset(Map<String, NetworkConfig> configs) {
            if (configs == null) {
                return null;
            }
            Map<String, Map<String, AssetNetworkConfig>> out = new TreeMap<>();
            configs.forEach((network, config) -> {
                Map<String, AssetNetworkConfig> assets = new TreeMap<>();
                if (config != null && config.cryptoAssetConfigs() != null) {
                    config.cryptoAssetConfigs().forEach((asset, c) -> {
                        if (c != null && c.minConfirmsLow() != null && c.minConfirmsHigh() != null
                                && c.qrExpirationSeconds() != null) {
                            assets.put(asset, new AssetNetworkConfig(c.minConfirmsLow(), c.minConfirmsHigh(),
                                    c.qrExpirationSeconds()));
                        }
                    });
                }
                out.put(network, assets);
            });
            return out;
        }

        /** The API's shape of network → asset → values. */
        public static Map<String, NetworkConfig> byNetwork(Map<String, Map<String, AssetNetworkConfig>> configs) {
            if (configs == null) {
                return null;
            }
            Map<String, NetworkConfig> out = new TreeMap<>();
            configs.forEach((network, assets) -> {
                Map<String, AssetConfig> values = new TreeMap<>();
                assets.forEach((asset, c) -> values.put(asset,
                        new AssetConfig(c.minConfirmsLow(), c.minConfirmsHigh(), c.qrExpirationSeconds())));
                out.put(network, new NetworkConfig(values));
            });
            return out;
        }
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

    /**
     * The account's billing schedule: fees (numbers ≥ 0) and dates ({@code YYYY-MM-DD}). Its fields sit at the top
     * level of the account configuration ({@link AccountSettings#billing()} is unwrapped).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record BillingSchedule(
            BigDecimal transactionFee,
            BigDecimal transactionFeeRate,
            BigDecimal settlementFee,
            BigDecimal authorizationFee,
            BigDecimal complianceFee,
            BigDecimal annualComplianceFee,
            BigDecimal oneTimeKYCFee,
            BigDecimal oneTimeEquipmentFee,
            BigDecimal oneTimeTerminationFee,
            BigDecimal oneTimeWeb3SecurityFee,
            BigDecimal monthlyProcessingFee,
            BigDecimal monthlyNonProcessingFee,
            BigDecimal monthlyAPIDataFee,
            BigDecimal monthlyDashboardFee,
            BigDecimal monthlyEquipmentFee,
            BigDecimal monthlyPremiumSupportFee,
            BigDecimal monthlyTerminalRentalFee,
            BigDecimal terminalLeaseFee,
            BigDecimal web3SecurityFee,
            String complianceStartDate,
            String complianceEndDate,
            String terminalLeaseStartDate,
            String terminalLeaseEndDate,
            String web3SecurityStartDate,
            String web3SecurityEndDate) {

        public static final BillingSchedule NONE = new BillingSchedule(null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * Everything an account configures: {@code GET/PUT /accounts/{accountUUID}/config} (PUT partial: only the fields
     * sent change), the operator's account update for the {@link OperatorOnly} ones, and the stored document.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record AccountSettings(
            List<String> allowedCrypto,
            List<String> allowedWallets,
            List<WalletConfig> allowedWalletsConfig,
            CheckoutConfig checkoutConfig,
            Map<String, NetworkConfig> cryptoNetworkConfigs,
            BigDecimal highThreshold,
            Integer refundWindowHours,
            Support support,
            FeeSchedule fees,
            @JsonUnwrapped BillingSchedule billing,
            @OperatorOnly Map<String, String> addressProvider,
            @OperatorOnly AutoRefundConfig autoRefundConfig,
            @OperatorOnly String defaultRecommendedNetwork,
            @OperatorOnly ProcessingFeeConfig processingFeeConfig,
            @OperatorOnly String settlementAnchor,
            @OperatorOnly String settlementFrequency,
            @OperatorOnly Boolean subscriptionsEmailCustomerOnPaymentFailed,
            @OperatorOnly Boolean subscriptionsEmailMerchantOnPaymentAttemptsExceeded) {

        public AccountSettings {
            allowedCrypto = AssetCodes.normalize(allowedCrypto);
            billing = billing == null ? BillingSchedule.NONE : billing;
        }

        public static AccountSettings empty() {
            return new AccountSettings(null, null, null, null, null, null, null, null, null, BillingSchedule.NONE,
                    null, null, null, null, null, null, null, null);
        }
    }

    /**
     * What a merchant configures itself: part of the merchant's create and update bodies and of its answer (echoed as
     * stored, not as effective), and the stored document.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record MerchantSettings(
            List<String> allowedCrypto,
            List<String> allowedWallets,
            List<WalletConfig> allowedWalletsConfig,
            CheckoutConfig checkoutConfig,
            Map<String, NetworkConfig> cryptoNetworkConfigs,
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

        public MerchantSettings {
            allowedCrypto = AssetCodes.normalize(allowedCrypto);
        }

        public static MerchantSettings empty() {
            return new MerchantSettings(null, null, null, null, null, null, null, null, null, null, null, null, null,
                    null, null, null);
        }

        /** The same settings with {@code allowedCrypto} replaced (the merchant body writes it as a string). */
        public MerchantSettings withAllowedCrypto(List<String> codes) {
            return new MerchantSettings(codes, allowedWallets, allowedWalletsConfig, checkoutConfig,
                    cryptoNetworkConfigs, feeConfig, inherit, canSet, kycEnabled, kycThreshold, kycThresholdCustodial,
                    highThreshold, refundWindowHours, travelRulesRegionalThreshold,
                    travelRulesRegionalThresholdCustodial, cancelTransactionEnabled);
        }

        /** As answered: every documented field present, lists {@code []} rather than null. */
        public MerchantSettings forAnswer() {
            return new MerchantSettings(orEmpty(allowedCrypto), orEmpty(allowedWallets), orEmpty(allowedWalletsConfig),
                    checkoutConfig, cryptoNetworkConfigs, feeConfig, inherit, canSet, kycEnabled, kycThreshold,
                    kycThresholdCustodial, highThreshold, refundWindowHours, travelRulesRegionalThreshold,
                    travelRulesRegionalThresholdCustodial, cancelTransactionEnabled);
        }
    }

    static <T> List<T> orEmpty(List<T> values) {
        return values == null ? List.of() : values;
    }
}
