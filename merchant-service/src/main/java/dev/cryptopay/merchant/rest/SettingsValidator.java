package dev.cryptopay.merchant.rest;

import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.events.MerchantConfiguration.FeeLine;
import dev.cryptopay.events.MerchantConfiguration.FeeSchedule;
import dev.cryptopay.merchant.domain.Settings.CheckoutConfig;
import dev.cryptopay.merchant.domain.Settings.WalletConfig;
import dev.cryptopay.merchant.rest.MerchantDtos.AssetConfigIn;
import dev.cryptopay.merchant.rest.MerchantDtos.NetworkConfigIn;
import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.validation.Validation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks of the configuration settings shared by merchants and accounts, with the limits documented in
 * docs/merchants.md. Each check names the offending field by its JSON path.
 */
final class SettingsValidator {

    static final int MAX_WALLETS = 50;
    static final int MAX_WALLET_NAME = 64;
    static final int MAX_TERM_NOTICE = 2000;
    static final int MAX_QR_SECONDS = 86_400;
    static final int MAX_CONFIRMATIONS = 1_000;
    static final int MAX_REFUND_WINDOW_HOURS = 8_760;
    static final BigDecimal MAX_AMOUNT = new BigDecimal("1000000000000");
    static final BigDecimal MAX_BPS = BigDecimal.valueOf(10_000);

    private SettingsValidator() {
    }

    static void amount(Validation v, String field, BigDecimal value) {
        v.nonNegative(field, value).between(field, value, BigDecimal.ZERO, MAX_AMOUNT);
    }

    static void thresholds(Validation v, String field, Map<String, BigDecimal> byRegion) {
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

    static void refundWindow(Validation v, Integer hours) {
        v.between("refundWindowHours", hours, 0, MAX_REFUND_WINDOW_HOURS);
    }

    static void wallets(Validation v, List<String> wallets, List<WalletConfig> configs) {
        if (wallets != null) {
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
        if (configs != null) {
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
    }

    static void checkout(Validation v, CheckoutConfig c) {
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

    /** Validates and converts {@code cryptoNetworkConfigs}; null when absent. */
    static Map<String, Map<String, AssetNetworkConfig>> networkConfigs(Validation v,
            Map<String, NetworkConfigIn> configs) {
        if (configs == null) {
            return null;
        }
        Catalogue catalogue = Catalogue.get();
        Map<String, Map<String, AssetNetworkConfig>> result = new TreeMap<>();
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
            Map<String, AssetNetworkConfig> assets = new TreeMap<>();
            networkConfig.cryptoAssetConfigs().forEach((asset, c) -> {
                String assetAt = at + ".cryptoAssetConfigs." + asset;
                if (!catalogue.supports(asset, network)) {
                    v.add(assetAt, "is not an asset offered on " + network);
                    return;
                }
                if (c == null) {
                    v.add(assetAt, "must be an object");
                    return;
                }
                assetConfig(v, assetAt, c);
                if (c.minConfirmsLow() != null && c.minConfirmsHigh() != null && c.qrExpirationSeconds() != null) {
                    assets.put(asset, new AssetNetworkConfig(c.minConfirmsLow(), c.minConfirmsHigh(),
                            c.qrExpirationSeconds()));
                }
            });
            result.put(network, assets);
        });
        return result;
    }

    private static void assetConfig(Validation v, String at, AssetConfigIn c) {
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

    static void fees(Validation v, String at, FeeSchedule fees) {
        if (fees == null) {
            return;
        }
        if (fees.platform() != null) {
            v.oneOf(at + ".platform.collection", fees.platform().collection(), List.of("deduct", "bill_separately"));
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

    /** Parses a comma-separated asset list (merchant update) and checks each code. */
    static List<String> assetList(Validation v, String field, String commaSeparated) {
        if (commaSeparated == null) {
            return null;
        }
        List<String> codes = new ArrayList<>();
        for (String part : commaSeparated.split(",")) {
            String code = part.strip();
            if (code.isEmpty()) {
                continue;
            }
            if (Catalogue.get().asset(code).isEmpty()) {
                v.add(field, code + " is not an asset of GET /assets");
            } else if (!codes.contains(code)) {
                codes.add(code);
            }
        }
        return codes;
    }

    static List<String> assetList(Validation v, String field, List<String> codes) {
        if (codes == null) {
            return null;
        }
        return assetList(v, field, String.join(",", codes.stream().map(c -> c == null ? "" : c).toList()));
    }
}
