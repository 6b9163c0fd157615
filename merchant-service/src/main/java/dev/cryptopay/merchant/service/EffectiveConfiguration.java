package dev.cryptopay.merchant.service;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.events.MerchantConfiguration.FeeSchedule;
import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.domain.Settings.CanSet;
import dev.cryptopay.merchant.domain.Settings.CheckoutConfig;
import dev.cryptopay.merchant.domain.Settings.Inherit;
import dev.cryptopay.merchant.domain.Settings.MerchantSettings;
import dev.cryptopay.support.catalogue.Catalogue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one place where a merchant's effective configuration is worked out (docs/decisions.md §11): a setting comes
 * from the account when the merchant's {@code inherit} flag for it is true or its {@code canSet} flag is false;
 * otherwise the merchant's own value holds, and where the merchant has none the account's does. Absent flags
 * mean inherit = false and canSet = true. What neither configures falls back to the platform defaults
 * ({@link PlatformDefaults}: confirmations and QR lifetime of the catalogue, high threshold, refund window,
 * settlement schedule, auto-refund switches, recommended network) or, for KYC and travel rule, to "off"/"none".
 *
 * <p>Accepted assets: the merchant's list, narrowed to the account's when the account has one; without a
 * merchant list, the account's; without either, the whole catalogue. Extended public keys: the account's
 * addressProvider, completed in the sandbox by the default test xpubs.
 */
public final class EffectiveConfiguration {

    private EffectiveConfiguration() {
    }

    public static MerchantConfiguration resolve(Account account, Merchant merchant, Map<String, String> defaultXpubs) {
        AccountSettings a = account.settings == null ? AccountSettings.empty() : account.settings;
        // The account's values where it has them, else the platform defaults (PlatformDefaults).
        AccountSettings applied = PlatformDefaults.effective(account, defaultXpubs);
        MerchantSettings m = merchant.settings;
        Inherit inherit = m == null || m.inherit() == null ? noInherit() : m.inherit();
        CanSet canSet = m == null || m.canSet() == null ? canSetAll() : m.canSet();

        List<String> allowedCrypto = allowedCrypto(m == null ? null : m.allowedCrypto(), a.allowedCrypto());
        Map<String, Map<String, AssetNetworkConfig>> networkConfigs = PlatformDefaults.networkConfigs(allowedCrypto,
                pick(inherit.inheritCryptoNetworkConfigs(), canSet.canSetCryptoNetworkConfigs(),
                        m == null ? null : m.cryptoNetworkConfigs(), a.cryptoNetworkConfigs()));

        Map<String, String> xpubs = applied.addressProvider() == null ? Map.of()
                : new TreeMap<>(applied.addressProvider());
        Map<String, Boolean> autoRefund = new LinkedHashMap<>();
        autoRefund.put("aml", applied.autoRefundConfig().aml());
        autoRefund.put("fraud", applied.autoRefundConfig().fraud());
        autoRefund.put("sanction", applied.autoRefundConfig().sanction());
        autoRefund.put("overpayment", applied.autoRefundConfig().overpayment());
        autoRefund.put("vendorStatus", applied.autoRefundConfig().vendorStatus());

        return new MerchantConfiguration(
                merchant.id.toString(),
                merchant.accountId.toString(),
                merchant.externalMID,
                merchant.name,
                merchant.dba,
                merchant.descriptor,
                merchant.country,
                merchant.region,
                merchant.archivedAt != null ? Merchant.DISABLED : merchant.status,
                merchant.fxRateAllowed,
                allowedCrypto,
                orEmpty(pick(inherit.inheritAllowedWallets(), canSet.canSetAllowedWallets(),
                        m == null ? null : m.allowedWallets(), a.allowedWallets())),
                networkConfigs,
                pick(inherit.inheritHighThreshold(), canSet.canSetHighThreshold(),
                        m == null ? null : m.highThreshold(), applied.highThreshold()),
                Boolean.TRUE.equals(pick(inherit.inheritKYCEnabled(), canSet.canSetKYCEnabled(),
                        m == null ? null : m.kycEnabled(), null)),
                pick(inherit.inheritKYCThreshold(), canSet.canSetKYCThreshold(),
                        m == null ? null : m.kycThreshold(), null),
                pick(inherit.inheritKYCThreshold(), canSet.canSetKYCThreshold(),
                        m == null ? null : m.kycThresholdCustodial(), null),
                orEmptyMap(pick(inherit.inheritTravelRulesRegionalThreshold(),
                        canSet.canSetTravelRulesRegionalThreshold(),
                        m == null ? null : m.travelRulesRegionalThreshold(), null)),
                orEmptyMap(pick(inherit.inheritTravelRulesRegionalThreshold(),
                        canSet.canSetTravelRulesRegionalThreshold(),
                        m == null ? null : m.travelRulesRegionalThresholdCustodial(), null)),
                pick(inherit.inheritRefundWindowHours(), canSet.canSetRefundWindowHours(),
                        m == null ? null : m.refundWindowHours(), applied.refundWindowHours()),
                m != null && Boolean.TRUE.equals(m.cancelTransactionEnabled()),
                fees(inherit, m == null ? null : m.feeConfig(), a.fees()),
                merchant.discountRate,
                xpubs,
                autoRefund,
                a.defaultRecommendedNetwork() != null ? a.defaultRecommendedNetwork()
                        : PlatformDefaults.recommendedNetwork(allowedCrypto),
                applied.settlementFrequency(),
                applied.settlementAnchor(),
                account.version + merchant.version,
                (merchant.updatedAt.isAfter(account.updatedAt) ? merchant.updatedAt : account.updatedAt).toString(),
                account.email,
                a.subscriptionsEmailCustomerOnPaymentFailed(),
                a.subscriptionsEmailMerchantOnPaymentAttemptsExceeded());
    }

    /** The checkout branding the merchant shows (same inheritance rule); null when nobody configured one. */
    public static CheckoutConfig checkoutConfig(Account account, Merchant merchant) {
        AccountSettings a = account.settings == null ? AccountSettings.empty() : account.settings;
        if (merchant == null) {
            return a.checkoutConfig();
        }
        MerchantSettings m = merchant.settings;
        Inherit inherit = m == null || m.inherit() == null ? noInherit() : m.inherit();
        CanSet canSet = m == null || m.canSet() == null ? canSetAll() : m.canSet();
        return pick(inherit.inheritCheckoutConfig(), canSet.canSetCheckoutConfig(),
                m == null ? null : m.checkoutConfig(), a.checkoutConfig());
    }

    /** The rule of docs/decisions.md §11 for one setting. */
    static <T> T pick(Boolean inherit, Boolean canSet, T merchantValue, T accountValue) {
        if (Boolean.TRUE.equals(inherit) || Boolean.FALSE.equals(canSet)) {
            return accountValue;
        }
        return merchantValue != null ? merchantValue : accountValue;
    }

    private static List<String> allowedCrypto(List<String> merchant, List<String> account) {
        List<String> all = Catalogue.get().assets().stream().map(Catalogue.Asset::code).toList();
        List<String> base = account == null || account.isEmpty() ? all : account;
        if (merchant == null || merchant.isEmpty()) {
            return List.copyOf(base);
        }
        return merchant.stream().filter(base::contains).distinct().toList();
    }

    private static FeeSchedule fees(Inherit inherit, FeeSchedule merchant, FeeSchedule account) {
        MerchantConfiguration.PlatformFees platform = Boolean.TRUE.equals(inherit.inheritPlatformFees())
                || merchant == null || merchant.platform() == null
                ? (account == null ? null : account.platform()) : merchant.platform();
        MerchantConfiguration.PartnerFees partner = Boolean.TRUE.equals(inherit.inheritPartnerFees())
                || merchant == null || merchant.partner() == null
                ? (account == null ? null : account.partner()) : merchant.partner();
        return platform == null && partner == null ? null : new FeeSchedule(platform, partner);
    }

    private static Inherit noInherit() {
        return new Inherit(null, null, null, null, null, null, null, null, null, null, null, null);
    }

    private static CanSet canSetAll() {
        return new CanSet(null, null, null, null, null, null, null, null, null, null);
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : new ArrayList<>(list);
    }

    private static <K, V> Map<K, V> orEmptyMap(Map<K, V> map) {
        return map == null ? Map.of() : new TreeMap<>(map);
    }
}
