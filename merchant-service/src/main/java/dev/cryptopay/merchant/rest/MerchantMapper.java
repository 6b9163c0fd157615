package dev.cryptopay.merchant.rest;

import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.MerchantSettings;
import dev.cryptopay.merchant.rest.MerchantDtos.DiscountRateOut;
import dev.cryptopay.merchant.rest.MerchantDtos.MerchantView;
import dev.cryptopay.merchant.rest.MerchantDtos.NetworkConfigOut;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Merchant entity to the documented Merchant object; settings are echoed as stored (not effective). */
final class MerchantMapper {

    private MerchantMapper() {
    }

    static MerchantView view(Merchant m) {
        MerchantSettings s = m.settings;
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
                list(s.allowedCrypto()),
                list(s.allowedWallets()),
                list(s.allowedWalletsConfig()),
                s.checkoutConfig(),
                networkConfigs(s.cryptoNetworkConfigs()),
                s.feeConfig(),
                s.inherit(),
                s.canSet(),
                s.kycEnabled(),
                s.kycThreshold(),
                s.kycThresholdCustodial(),
                s.highThreshold(),
                s.refundWindowHours(),
                s.travelRulesRegionalThreshold(),
                s.travelRulesRegionalThresholdCustodial(),
                s.cancelTransactionEnabled(),
                m.logoFilename);
    }

    /** network → asset → values becomes network → {@code cryptoAssetConfigs} → asset → values. */
    static Map<String, NetworkConfigOut> networkConfigs(Map<String, Map<String, AssetNetworkConfig>> configs) {
        if (configs == null) {
            return null;
        }
        Map<String, NetworkConfigOut> out = new TreeMap<>();
        configs.forEach((network, assets) -> out.put(network, new NetworkConfigOut(new TreeMap<>(assets))));
        return out;
    }

    private static <T> List<T> list(List<T> values) {
        return values == null ? List.of() : values;
    }
}
