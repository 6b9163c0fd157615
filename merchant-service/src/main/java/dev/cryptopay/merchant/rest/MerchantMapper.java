package dev.cryptopay.merchant.rest;

import dev.cryptopay.merchant.domain.AssetCodes;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.MerchantSettings;
import dev.cryptopay.merchant.rest.MerchantDtos.DiscountRateOut;
import dev.cryptopay.merchant.rest.MerchantDtos.MerchantRequest;
import dev.cryptopay.merchant.rest.MerchantDtos.MerchantView;
import dev.cryptopay.merchant.service.MerchantDraft;

/** The merchant bodies to and from the service; settings are echoed as stored (not effective). */
final class MerchantMapper {

    private MerchantMapper() {
    }

    static MerchantDraft draft(MerchantRequest body) {
        MerchantRequest r = body == null
                ? new MerchantRequest(null, null, null, null, null, null, null, null, null, null, null, null)
                : body;
        MerchantSettings settings = (r.settings() == null ? MerchantSettings.empty() : r.settings())
                .withAllowedCrypto(AssetCodes.parse(r.allowedCrypto()));
        return new MerchantDraft(r.name(), r.dba(), r.address1(), r.address2(), r.city(), r.region(), r.country(),
                r.externalMID(), r.merchantDiscountRate(), r.logoFilename(), settings);
    }

    static MerchantView view(Merchant m) {
        MerchantSettings s = m.settings == null ? MerchantSettings.empty() : m.settings;
        return new MerchantView(
                m.createdAt.toString(),
                m.updatedAt.toString(),
                m.id.toString(),
                m.name,
                m.dba,
                m.address1,
                m.address2,
                m.city,
                m.region,
                m.country,
                m.status,
                m.descriptor,
                m.accountId.toString(),
                m.externalMID,
                m.discountRate == null ? null
                        : new DiscountRateOut(m.discountRate.percentage(), m.discountRate.flatRate(),
                                m.discountRate.flatRateCurrency()),
                s.forAnswer(),
                m.logoFilename);
    }
}
