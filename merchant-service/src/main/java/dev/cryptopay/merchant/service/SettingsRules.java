package dev.cryptopay.merchant.service;

import dev.cryptopay.events.MerchantConfiguration.FeeLine;
import dev.cryptopay.events.MerchantConfiguration.FeeSchedule;
import dev.cryptopay.merchant.domain.Settings.AssetConfig;
import dev.cryptopay.merchant.domain.Settings.CheckoutConfig;
import dev.cryptopay.merchant.domain.Settings.NetworkConfig;
import dev.cryptopay.merchant.domain.Settings.Support;
import dev.cryptopay.merchant.domain.Settings.WalletConfig;
import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.validation.Validation;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The checks of the setting values that accounts and merchants share, with the limits documented in
 * docs/merchants.md ("Limits of merchant and configuration fields"): one method per value record of
 * {@link dev.cryptopay.merchant.domain.Settings}. Each names the offending field by its JSON path under {@code at}.
 */
public final class SettingsRules {

    public static final int MAX_WALLETS = 50;
    public static final int MAX_WALLET_NAME = 64;
    public static final int MAX_TERM_NOTICE = 2000;
    public static final int MAX_QR_SECONDS = 86_400;
    public static final int MAX_CONFIRMATIONS = 1_000;
    public static final int MAX_REFUND_WINDOW_HOURS = 8_760;
    public static final BigDecimal MAX_AMOUNT = new BigDecimal("1000000000000");
    public static final BigDecimal MAX_BPS = BigDecimal.valueOf(10_000);
    public static final List<String> FEE_COLLECTIONS = List.of("deduct", "bill_separately");

    private SettingsRules() {
    }

    /** An amount or threshold in local currency: 0 … 1,000,000,000,000. */
    public static void amount(Validation v, String field, BigDecimal value) {
        v.nonNegative(field, value).between(field, value, BigDecimal.ZERO, MAX_AMOUNT);
    }

    /** Region → threshold (travel rule). */
    public static void thresholds(Validation v, String field, Map<String, BigDecimal> byRegion) {
        if (byRegion == null) {
            return;
        }
        byRegion.forEach((region, value) -> {
            if (region == null || region.isBlank() || region.length() > 64) {
                v.add(field, "region names must be 1 to 64 characters");
            }
            if (value == null) {
                v.add(field + "." + region, "is required");
            }
            amount(v, field + "." + region, value);
        });
    }

    public static void refundWindow(Validation v, Integer hours) {
        v.between("refundWindowHours", hours, 0, MAX_REFUND_WINDOW_HOURS);
    }

    /** Every code must be an asset of the catalogue ({@code GET /assets}). */
    public static void assetCodes(Validation v, String field, List<String> codes) {
        if (codes == null) {
            return;
        }
        for (String code : codes) {
            if (Catalogue.get().asset(code).isEmpty()) {
                v.add(field, code + " is not an asset of GET /assets");
            }
        }
    }

    public static void wallets(Validation v, List<String> wallets) {
        if (wallets == null) {
            return;
        }
        if (wallets.size() > MAX_WALLETS) {
            v.add("allowedWallets", "at most " + MAX_WALLETS + " wallets");
        }
        for (int i = 0; i < wallets.size(); i++) {
            String name = wallets.get(i);
            if (name == null || name.isBlank() || name.length() > MAX_WALLET_NAME) {
                v.add("allowedWallets[" + i + "]", "must be 1 to " + MAX_WALLET_NAME + " characters");
            }
        }
    }

    public static void walletConfigs(Validation v, List<WalletConfig> configs) {
        if (configs == null) {
            return;
        }
        if (configs.size() > MAX_WALLETS) {
            v.add("allowedWalletsConfig", "at most " + MAX_WALLETS + " wallets");
        }
        for (int i = 0; i < configs.size(); i++) {
            WalletConfig c = configs.get(i);
            String at = "allowedWalletsConfig[" + i + "]";
            if (c == null) {
                v.add(at, "must be an object");
                continue;
            }
            if (c.name() == null || c.name().isBlank() || c.name().length() > MAX_WALLET_NAME) {
                v.add(at + ".name", "must be 1 to " + MAX_WALLET_NAME + " characters");
            }
            v.text(at + ".featuredNote", c.featuredNote(), Validation.MAX_STRING);
            v.between(at + ".order", c.order(), 0, 10_000);
        }
    }

    public static void checkout(Validation v, CheckoutConfig c) {
        if (c == null) {
            return;
        }
        v.httpUrl("checkoutConfig.logoURL", c.logoURL());
        v.text("checkoutConfig.termNotice", c.termNotice(), MAX_TERM_NOTICE);
        if (c.theme() != null) {
            v.hexColor("checkoutConfig.theme.primaryColor", c.theme().primaryColor());
            v.hexColor("checkoutConfig.theme.accentColor", c.theme().accentColor());
            v.hexColor("checkoutConfig.theme.backgroundColor", c.theme().backgroundColor());
            v.hexColor("checkoutConfig.theme.textColor", c.theme().textColor());
        }
        if (c.fonts() != null) {
            v.text("checkoutConfig.fonts.family", c.fonts().family(), Validation.MAX_STRING);
            v.httpUrl("checkoutConfig.fonts.familyURL", c.fonts().familyURL());
        }
    }

    public static void support(Validation v, Support support) {
        if (support != null) {
            v.email("support.email", support.email()).httpUrl("support.link", support.link());
        }
    }

    /** Networks and assets of the catalogue, each asset offered on its network, its three values required. */
    public static void networkConfigs(Validation v, Map<String, NetworkConfig> configs) {
        if (configs == null) {
            return;
        }
        Catalogue catalogue = Catalogue.get();
        configs.forEach((network, networkConfig) -> {
            String at = "cryptoNetworkConfigs." + network;
            if (catalogue.network(network).isEmpty()) {
                v.add(at, "is not a network of GET /assets");
                return;
            }
            if (networkConfig == null || networkConfig.cryptoAssetConfigs() == null) {
                v.add(at + ".cryptoAssetConfigs", "is required");
                return;
            }
            networkConfig.cryptoAssetConfigs().forEach((asset, c) -> {
                String assetAt = at + ".cryptoAssetConfigs." + asset;
                if (!catalogue.supports(asset, network)) {
                    v.add(assetAt, "is not an asset offered on " + network);
                } else if (c == null) {
                    v.add(assetAt, "must be an object");
                } else {
                    assetConfig(v, assetAt, c);
                }
            });
        });
    }

    private static void assetConfig(Validation v, String at, AssetConfig c) {
        v.required(at + ".minConfirmsLow", c.minConfirmsLow())
                .required(at + ".minConfirmsHigh", c.minConfirmsHigh())
                .required(at + ".qrExpirationSeconds", c.qrExpirationSeconds())
                .between(at + ".minConfirmsLow", c.minConfirmsLow(), 1, MAX_CONFIRMATIONS)
                .between(at + ".minConfirmsHigh", c.minConfirmsHigh(), 1, MAX_CONFIRMATIONS)
                .between(at + ".qrExpirationSeconds", c.qrExpirationSeconds(), 1, MAX_QR_SECONDS);
        if (c.minConfirmsLow() != null && c.minConfirmsHigh() != null && c.minConfirmsLow() > c.minConfirmsHigh()) {
            v.add(at + ".minConfirmsLow", "must not exceed minConfirmsHigh");
        }
    }

    /** A fee schedule ({@code feeConfig} of a merchant, {@code fees} of an account) under {@code at}. */
    public static void fees(Validation v, String at, FeeSchedule fees) {
        if (fees == null) {
            return;
        }
        if (fees.platform() != null) {
            v.oneOf(at + ".platform.collection", fees.platform().collection(), FEE_COLLECTIONS);
            feeLine(v, at + ".platform.perTransaction", fees.platform().perTransaction());
            feeLine(v, at + ".platform.perSettlement", fees.platform().perSettlement());
            if (fees.platform().split() != null) {
                v.between(at + ".platform.split.platformShareBps", fees.platform().split().platformShareBps(),
                        BigDecimal.ZERO, MAX_BPS);
                v.text(at + ".platform.split.partnerID", fees.platform().split().partnerID(), Validation.MAX_STRING);
            }
        }
        if (fees.partner() != null) {
            feeLine(v, at + ".partner.customer", fees.partner().customer());
            feeLine(v, at + ".partner.mdr", fees.partner().mdr());
        }
    }

    private static void feeLine(Validation v, String at, FeeLine line) {
        if (line == null) {
            return;
        }
        v.between(at + ".basisPoints", line.basisPoints(), BigDecimal.ZERO, MAX_BPS);
        v.nonNegative(at + ".flatCents", line.flatCents());
        v.between(at + ".flatCents", line.flatCents(), BigDecimal.ZERO, MAX_AMOUNT);
    }
}
