package dev.cryptopay.merchant.service;

import dev.cryptopay.events.MerchantConfiguration.DiscountRate;
import dev.cryptopay.merchant.domain.Settings.MerchantSettings;

/**
 * A merchant body as sent (create, or the full replacement of update), checked by {@link MerchantDraftValidator}
 * when the service receives it.
 */
public record MerchantDraft(String name, String dba, String address1, String address2, String city, String region,
        String country, String externalMID, DiscountRate discountRate, String logoFilename,
        MerchantSettings settings) {

    public MerchantDraft {
        settings = settings == null ? MerchantSettings.empty() : settings;
    }

    /** Text stripped, blanks as null (a valid draft: the required fields are present). */
    MerchantDraft normalized() {
        return new MerchantDraft(name.strip(), blankToNull(dba), address1.strip(), blankToNull(address2),
                city.strip(), region.strip(), country, blankToNull(externalMID), discountRate,
                blankToNull(logoFilename), settings);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
