package dev.cryptopay.merchant.service;

import dev.cryptopay.merchant.domain.Settings.MerchantSettings;
import dev.cryptopay.support.validation.Validation;

/**
 * The rules of {@link MerchantSettings} (docs/merchants.md, "Limits of merchant and configuration fields"): a new
 * merchant setting gets its check here. The merchant update is a full replacement, so every field is checked.
 */
public final class MerchantSettingsValidator {

    private MerchantSettingsValidator() {
    }

    public static void validate(Validation v, MerchantSettings s) {
        if (s == null) {
            return;
        }
        SettingsRules.assetCodes(v, "allowedCrypto", s.allowedCrypto());
        SettingsRules.wallets(v, s.allowedWallets());
        SettingsRules.walletConfigs(v, s.allowedWalletsConfig());
        SettingsRules.checkout(v, s.checkoutConfig());
        SettingsRules.networkConfigs(v, s.cryptoNetworkConfigs());
        SettingsRules.fees(v, "feeConfig", s.feeConfig());
        // inherit, canSet, kycEnabled, cancelTransactionEnabled: any boolean (or absent) is valid
        SettingsRules.amount(v, "kycThreshold", s.kycThreshold());
        SettingsRules.amount(v, "kycThresholdCustodial", s.kycThresholdCustodial());
        SettingsRules.amount(v, "highThreshold", s.highThreshold());
        SettingsRules.refundWindow(v, s.refundWindowHours());
        SettingsRules.thresholds(v, "travelRulesRegionalThreshold", s.travelRulesRegionalThreshold());
        SettingsRules.thresholds(v, "travelRulesRegionalThresholdCustodial",
                s.travelRulesRegionalThresholdCustodial());
    }
}
