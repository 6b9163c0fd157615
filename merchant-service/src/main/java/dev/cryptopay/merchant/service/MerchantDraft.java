package dev.cryptopay.merchant.service;

import dev.cryptopay.events.MerchantConfiguration.DiscountRate;
import dev.cryptopay.merchant.domain.Settings.MerchantSettings;

/** A validated merchant body, ready to be stored (create, or the full replacement of update). */
public record MerchantDraft(String name, String dba, String address1, String address2, String city, String region,
        String country, String externalMID, DiscountRate discountRate, String logoFilename,
        MerchantSettings settings) {
}
