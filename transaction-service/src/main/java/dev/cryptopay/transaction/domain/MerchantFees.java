package dev.cryptopay.transaction.domain;

import dev.cryptopay.events.MerchantConfiguration;

/**
 * The merchant's discount rate and fee schedule as they stood when a transaction succeeded, kept with it so
 * reporting figures never depend on today's settings (docs/decisions.md §8). Either part is null when the merchant has none.
 */
public record MerchantFees(MerchantConfiguration.DiscountRate merchantDiscountRate,
        MerchantConfiguration.FeeSchedule fees) {

    public static MerchantFees of(MerchantConfiguration config) {
        return new MerchantFees(config.merchantDiscountRate(), config.fees());
    }
}
