package dev.cryptopay.merchant.rest;

import dev.cryptopay.events.MerchantConfiguration.DiscountRate;
import dev.cryptopay.merchant.domain.Settings.MerchantSettings;
import dev.cryptopay.merchant.rest.MerchantDtos.MerchantRequest;
import dev.cryptopay.merchant.service.MerchantDraft;
import dev.cryptopay.support.validation.Validation;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/** Validates a create or update body field by field and turns it into a {@link MerchantDraft}. */
final class MerchantRequestValidator {

    static final int MAX_EXTERNAL_MID = 64;
    private static final Pattern EXTERNAL_MID = Pattern.compile("^[A-Za-z0-9._:-]{1,64}$");

    private MerchantRequestValidator() {
    }

    static MerchantDraft validate(MerchantRequest body, boolean update) {
        MerchantRequest r = body == null ? empty() : body;
        Validation v = new Validation()
                .requiredText("name", r.name())
                .requiredText("address1", r.address1())
                .requiredText("city", r.city())
                .requiredText("region", r.region())
                .requiredText("country", r.country())
                .country("country", r.country())
                .text("dba", r.dba(), Validation.MAX_STRING)
                .text("address2", r.address2(), Validation.MAX_STRING)
                .text("logoFilename", r.logoFilename(), Validation.MAX_STRING);
        if (!update && r.externalMID() != null && !EXTERNAL_MID.matcher(r.externalMID()).matches()) {
            v.add("externalMID", "must be 1 to " + MAX_EXTERNAL_MID + " letters, digits or . _ : -");
        }
        DiscountRate discount = null;
        if (r.merchantDiscountRate() != null) {
            var d = r.merchantDiscountRate();
            v.between("merchantDiscountRate.percentage", d.percentage(), BigDecimal.ZERO, BigDecimal.ONE)
                    .nonNegative("merchantDiscountRate.flatRate", d.flatRate())
                    .currency("merchantDiscountRate.flatRateCurrency", d.flatRateCurrency());
            SettingsValidator.amount(v, "merchantDiscountRate.flatRate", d.flatRate());
            if (d.flatRate() != null && d.flatRate().signum() > 0 && d.flatRateCurrency() == null) {
                v.add("merchantDiscountRate.flatRateCurrency", "is required with a flatRate");
            }
            discount = new DiscountRate(d.percentage(), d.flatRate(), d.flatRateCurrency());
        }
        SettingsValidator.amount(v, "highThreshold", r.highThreshold());
        SettingsValidator.amount(v, "kycThreshold", r.kycThreshold());
        SettingsValidator.amount(v, "kycThresholdCustodial", r.kycThresholdCustodial());
        SettingsValidator.refundWindow(v, r.refundWindowHours());
        SettingsValidator.thresholds(v, "travelRulesRegionalThreshold", r.travelRulesRegionalThreshold());
        SettingsValidator.thresholds(v, "travelRulesRegionalThresholdCustodial",
                r.travelRulesRegionalThresholdCustodial());
        SettingsValidator.wallets(v, r.allowedWallets(), r.allowedWalletsConfig());
        SettingsValidator.checkout(v, r.checkoutConfig());
        var networkConfigs = SettingsValidator.networkConfigs(v, r.cryptoNetworkConfigs());
        var allowedCrypto = SettingsValidator.assetList(v, "allowedCrypto", r.allowedCrypto());
        SettingsValidator.fees(v, "feeConfig", r.feeConfig());
        v.throwIfInvalid();

        MerchantSettings settings = new MerchantSettings(allowedCrypto, r.allowedWallets(), r.allowedWalletsConfig(),
                r.checkoutConfig(), networkConfigs, r.feeConfig(), r.inherit(), r.canSet(), r.kycEnabled(),
                r.kycThreshold(), r.kycThresholdCustodial(), r.highThreshold(), r.refundWindowHours(),
                r.travelRulesRegionalThreshold(), r.travelRulesRegionalThresholdCustodial(),
                r.cancelTransactionEnabled());
        return new MerchantDraft(r.name().strip(), blankToNull(r.dba()), r.address1().strip(),
                blankToNull(r.address2()), r.city().strip(), r.region().strip(), r.country(),
                update ? null : blankToNull(r.externalMID()), discount, blankToNull(r.logoFilename()), settings);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static MerchantRequest empty() {
        return new MerchantRequest(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null);
    }
}
