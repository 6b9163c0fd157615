package dev.cryptopay.merchant.service;

import dev.cryptopay.events.MerchantConfiguration.DiscountRate;
import dev.cryptopay.support.validation.Validation;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * The rules of a merchant body (docs/merchants.md): the merchant's own fields here, its settings in
 * {@link MerchantSettingsValidator}; every bad field is named in one 400.
 */
final class MerchantDraftValidator {

    static final int MAX_EXTERNAL_MID = 64;
    private static final Pattern EXTERNAL_MID = Pattern.compile("^[A-Za-z0-9._:-]{1,64}$");

    private MerchantDraftValidator() {
    }

    /**
     * @param update              the full replacement of an existing merchant (externalMID is then ignored)
     * @param currentLogoFilename the name the logo upload gave the merchant; null for a new merchant or none yet
     */
    static void validate(MerchantDraft d, boolean update, String currentLogoFilename) {
        Validation v = new Validation()
                .requiredText("name", d.name())
                .requiredText("address1", d.address1())
                .requiredText("city", d.city())
                .requiredText("region", d.region())
                .requiredText("country", d.country())
                .country("country", d.country())
                .text("dba", d.dba(), Validation.MAX_STRING)
                .text("address2", d.address2(), Validation.MAX_STRING);
        if (!update && d.externalMID() != null && !EXTERNAL_MID.matcher(d.externalMID()).matches()) {
            v.add("externalMID", "must be 1 to " + MAX_EXTERNAL_MID + " letters, digits or . _ : -");
        }
        logoFilename(v, d.logoFilename(), currentLogoFilename);
        discountRate(v, d.discountRate());
        MerchantSettingsValidator.validate(v, d.settings());
        v.throwIfInvalid();
    }

    /**
     * {@code logoFilename} names the image the logo upload stored, so it is not free text: a body may leave it out,
     * send it empty or repeat the current value (a read sent back); anything else is refused (docs/decisions.md §38).
     */
    private static void logoFilename(Validation v, String sent, String current) {
        if (sent == null || sent.isBlank() || sent.strip().equals(current)) {
            return;
        }
        v.add("logoFilename", current == null
                ? "is set by the logo upload (POST …/uploadlogo); leave it out"
                : "is set by the logo upload (POST …/uploadlogo); leave it out or send the current value");
    }

    private static void discountRate(Validation v, DiscountRate d) {
        if (d == null) {
            return;
        }
        v.between("merchantDiscountRate.percentage", d.percentage(), BigDecimal.ZERO, BigDecimal.ONE)
                .nonNegative("merchantDiscountRate.flatRate", d.flatRate())
                .currency("merchantDiscountRate.flatRateCurrency", d.flatRateCurrency());
        SettingsRules.amount(v, "merchantDiscountRate.flatRate", d.flatRate());
        if (d.flatRate() != null && d.flatRate().signum() > 0 && d.flatRateCurrency() == null) {
            v.add("merchantDiscountRate.flatRateCurrency", "is required with a flatRate");
        }
    }
}
