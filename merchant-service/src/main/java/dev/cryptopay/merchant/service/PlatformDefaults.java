package dev.cryptopay.merchant.service;

import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.domain.Settings.AutoRefundConfig;
import dev.cryptopay.merchant.domain.Settings.CheckoutConfig;
import dev.cryptopay.merchant.domain.Settings.Flow;
import dev.cryptopay.merchant.domain.Settings.Fonts;
import dev.cryptopay.merchant.domain.Settings.NetworkConfig;
import dev.cryptopay.merchant.domain.Settings.ProcessingFeeConfig;
import dev.cryptopay.merchant.domain.Settings.Support;
import dev.cryptopay.merchant.domain.Settings.Theme;
import dev.cryptopay.support.catalogue.Catalogue;
import java.math.BigDecimal;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The platform's default of every operator-managed and payment-affecting setting (docs/merchants.md, "Platform
 * defaults"). The account is the top of the inheritance chain: where it sets nothing, these values apply, so the
 * account configuration read and the checkout read show them, and the effective merchant configuration that
 * transactions use carries them. Stored settings are never rewritten: a cleared field falls back to its default.
 * Only the billing schedule and the fee schedule ({@code fees}) have no default: nothing is charged until an
 * account manager sets them.
 */
public final class PlatformDefaults {

    /** Hours after payment within which a transaction can be refunded (30 days). */
    public static final int REFUND_WINDOW_HOURS = 720;
    /** USD total at or above which {@code minConfirmsHigh} applies instead of {@code minConfirmsLow}. */
    public static final BigDecimal HIGH_THRESHOLD = new BigDecimal("10000");
    public static final String SETTLEMENT_FREQUENCY = "daily";
    /** The checkout's default theme, fonts and flow (no logo, no terms notice). */
    public static final Theme THEME = new Theme("#1A56DB", "#0E9F6E", "#FFFFFF", "#111827");
    public static final Fonts FONTS = new Fonts("system-ui", null);
    public static final Flow FLOW = new Flow(false, false, false);
    /** Automatic refunds are off until the operator turns one on. */
    public static final AutoRefundConfig AUTO_REFUND = new AutoRefundConfig(false, false, false, false, false);
    /** No processing fee until the operator sets one. */
    public static final ProcessingFeeConfig PROCESSING_FEE = new ProcessingFeeConfig(BigDecimal.ZERO, BigDecimal.ZERO);
    /** Subscription e-mails are sent only once the operator switches them on. */
    public static final boolean SUBSCRIPTIONS_EMAIL_CUSTOMER_ON_PAYMENT_FAILED = false;
    public static final boolean SUBSCRIPTIONS_EMAIL_MERCHANT_ON_PAYMENT_ATTEMPTS_EXCEEDED = false;

    private PlatformDefaults() {
    }

    /**
     * The account's settings as they apply: every field the account (or the operator) left unset takes the
     * platform default. {@code defaultXpubs} are the sandbox test xpubs (empty in production).
     */
    public static AccountSettings effective(Account account, Map<String, String> defaultXpubs) {
        AccountSettings a = account.settings == null ? AccountSettings.empty() : account.settings;
        List<String> allowedCrypto = a.allowedCrypto() == null || a.allowedCrypto().isEmpty() ? allAssets()
                : List.copyOf(a.allowedCrypto());
        Map<String, String> xpubs = new TreeMap<>(defaultXpubs);
        if (a.addressProvider() != null) {
            xpubs.putAll(a.addressProvider());
        }
        return new AccountSettings(
                allowedCrypto,
                a.allowedWallets() == null ? List.of() : a.allowedWallets(),
                a.allowedWalletsConfig() == null ? List.of() : a.allowedWalletsConfig(),
                checkout(a.checkoutConfig()),
                NetworkConfig.byNetwork(networkConfigs(allowedCrypto, a.cryptoNetworkConfigs())),
                a.highThreshold() != null ? a.highThreshold() : HIGH_THRESHOLD,
                a.refundWindowHours() != null ? a.refundWindowHours() : REFUND_WINDOW_HOURS,
                support(a.support(), account.email),
                a.fees(),
                a.billing(),
                xpubs.isEmpty() ? null : xpubs,
                autoRefund(a.autoRefundConfig()),
                a.defaultRecommendedNetwork() != null ? a.defaultRecommendedNetwork()
                        : recommendedNetwork(allowedCrypto),
                a.processingFeeConfig() != null ? a.processingFeeConfig() : PROCESSING_FEE,
                a.settlementAnchor() != null ? a.settlementAnchor() : anchor(account),
                a.settlementFrequency() != null ? a.settlementFrequency() : SETTLEMENT_FREQUENCY,
                a.subscriptionsEmailCustomerOnPaymentFailed() != null ? a.subscriptionsEmailCustomerOnPaymentFailed()
                        : SUBSCRIPTIONS_EMAIL_CUSTOMER_ON_PAYMENT_FAILED,
                a.subscriptionsEmailMerchantOnPaymentAttemptsExceeded() != null
                        ? a.subscriptionsEmailMerchantOnPaymentAttemptsExceeded()
                        : SUBSCRIPTIONS_EMAIL_MERCHANT_ON_PAYMENT_ATTEMPTS_EXCEEDED);
    }

    /** A checkout configuration with every part the merchant or account left out taken from the defaults. */
    public static CheckoutConfig checkout(CheckoutConfig configured) {
        CheckoutConfig c = configured == null ? new CheckoutConfig(null, null, null, null, null) : configured;
        Theme t = c.theme() == null ? THEME : c.theme();
        Fonts f = c.fonts() == null ? FONTS : c.fonts();
        Flow w = c.flow() == null ? FLOW : c.flow();
        return new CheckoutConfig(c.logoURL(), c.termNotice(),
                new Theme(or(t.primaryColor(), THEME.primaryColor()), or(t.accentColor(), THEME.accentColor()),
                        or(t.backgroundColor(), THEME.backgroundColor()), or(t.textColor(), THEME.textColor())),
                new Fonts(or(f.family(), FONTS.family()), f.familyURL()),
                new Flow(or(w.hideNoWalletOption(), FLOW.hideNoWalletOption()),
                        or(w.showApprovalPage(), FLOW.showApprovalPage()),
                        or(w.skipConfirmationPage(), FLOW.skipConfirmationPage())));
    }

    /** Support shown at checkout: the configured contact, its e-mail defaulting to the account's. */
    public static Support support(Support configured, String accountEmail) {
        if (configured == null) {
            return new Support(accountEmail, null);
        }
        return new Support(configured.email() != null ? configured.email() : accountEmail, configured.link());
    }

    /** The settlement schedule's anchor when the operator set none: the account's creation, RFC 3339 in UTC. */
    public static String anchor(Account account) {
        return account.createdAt == null ? null
                // Instant.toString always prints the seconds (RFC 3339); OffsetDateTime.toString drops ":00"
                : account.createdAt.toInstant().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** Every accepted asset on each of its networks: configured confirmations and QR lifetime, else the catalogue's. */
    public static Map<String, Map<String, AssetNetworkConfig>> networkConfigs(List<String> allowedCrypto,
            Map<String, NetworkConfig> configuredByNetwork) {
        Map<String, Map<String, AssetNetworkConfig>> configured = NetworkConfig.byAsset(configuredByNetwork);
        Map<String, Map<String, AssetNetworkConfig>> result = new TreeMap<>();
        Catalogue catalogue = Catalogue.get();
        for (String code : allowedCrypto) {
            Catalogue.Asset asset = catalogue.asset(code).orElseThrow();
            for (String networkName : asset.networks()) {
                Catalogue.Network network = catalogue.network(networkName).orElseThrow();
                AssetNetworkConfig own = configured == null || configured.get(networkName) == null ? null
                        : configured.get(networkName).get(code);
                AssetNetworkConfig effective = own != null ? own
                        : new AssetNetworkConfig(network.defaultMinConfirmsLow(), network.defaultMinConfirmsHigh(),
                                network.defaultQrExpirationSeconds());
                result.computeIfAbsent(networkName, n -> new TreeMap<>()).put(code, effective);
            }
        }
        return result;
    }

    /** The first network of the catalogue that carries one of the accepted assets. */
    static String recommendedNetwork(List<String> allowedCrypto) {
        Catalogue catalogue = Catalogue.get();
        return catalogue.networks().stream()
                .filter(n -> allowedCrypto.stream().anyMatch(code -> catalogue.supports(code, n.name())))
                .map(Catalogue.Network::name).findFirst().orElse(null);
    }

    private static AutoRefundConfig autoRefund(AutoRefundConfig c) {
        if (c == null) {
            return AUTO_REFUND;
        }
        return new AutoRefundConfig(or(c.aml(), false), or(c.fraud(), false), or(c.sanction(), false),
                or(c.overpayment(), false), or(c.vendorStatus(), false));
    }

    private static List<String> allAssets() {
        return Catalogue.get().assets().stream().map(Catalogue.Asset::code).toList();
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
