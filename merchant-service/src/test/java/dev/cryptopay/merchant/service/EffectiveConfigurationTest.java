package dev.cryptopay.merchant.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.merchant.domain.Account;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.domain.Settings.AssetConfig;
import dev.cryptopay.merchant.domain.Settings.BillingSchedule;
import dev.cryptopay.merchant.domain.Settings.CanSet;
import dev.cryptopay.merchant.domain.Settings.Inherit;
import dev.cryptopay.merchant.domain.Settings.MerchantSettings;
import dev.cryptopay.merchant.domain.Settings.NetworkConfig;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EffectiveConfigurationTest {

    private static final Map<String, String> DEFAULT_XPUBS = Map.of("bitcoin", "vpub-default", "ethereum", "xpub-eth");

    @Test
    void theMerchantsOwnValueHoldsWithoutFlags() {
        MerchantConfiguration c = resolve(account(new BigDecimal("5000"), 48),
                merchant(new BigDecimal("1000"), 24, null, null));
        assertEquals(new BigDecimal("1000"), c.highThreshold());
        assertEquals(24, c.refundWindowHours());
    }

    @Test
    void inheritTakesTheAccountsValue() {
        Inherit inherit = new Inherit(null, null, null, null, true, null, null, true, null, null, null, null);
        MerchantConfiguration c = resolve(account(new BigDecimal("5000"), 48),
                merchant(new BigDecimal("1000"), 24, inherit, null));
        assertEquals(new BigDecimal("5000"), c.highThreshold());
        assertEquals(48, c.refundWindowHours());
    }

    @Test
    void canSetFalseTakesTheAccountsValueEvenWhenTheMerchantHasOne() {
        CanSet canSet = new CanSet(null, null, null, null, false, null, null, null, null, null);
        MerchantConfiguration c = resolve(account(new BigDecimal("5000"), 48),
                merchant(new BigDecimal("1000"), 24, null, canSet));
        assertEquals(new BigDecimal("5000"), c.highThreshold());
        assertEquals(24, c.refundWindowHours(), "only the named setting is affected");
    }

    @Test
    void aMissingMerchantValueFallsBackToTheAccount() {
        MerchantConfiguration c = resolve(account(new BigDecimal("5000"), 48), merchant(null, null, null, null));
        assertEquals(new BigDecimal("5000"), c.highThreshold());
        assertEquals(48, c.refundWindowHours());
    }

    @Test
    void everyAcceptedAssetGetsConfirmationsConfiguredOrDefault() {
        Account account = account(null, null);
        Merchant merchant = merchant(null, null, null, null);
        merchant.settings = new MerchantSettings(List.of("BTC", "USDC"), null, null, null,
                Map.of("polygon", new NetworkConfig(Map.of("USDC", new AssetConfig(2, 40, 600)))), null, null, null, null, null,
                null, null, null, null, null, null);
        MerchantConfiguration c = resolve(account, merchant);
        assertEquals(List.of("BTC", "USDC"), c.allowedCrypto());
        assertEquals(new AssetNetworkConfig(2, 40, 600), c.cryptoNetworkConfigs().get("polygon").get("USDC"));
        assertEquals(new AssetNetworkConfig(1, 3, 900), c.cryptoNetworkConfigs().get("bitcoin").get("BTC"));
        assertEquals(new AssetNetworkConfig(3, 12, 900), c.cryptoNetworkConfigs().get("ethereum").get("USDC"));
        assertFalse(c.cryptoNetworkConfigs().containsKey("tron"), "USDT is not accepted");
    }

    @Test
    void theMerchantsAssetsAreNarrowedToTheAccounts() {
        Account account = account(null, null);
        account.settings = new AccountSettings(List.of("BTC", "ETH"), null, null, null, null, null, null, null, null,
                BillingSchedule.NONE, null, null, null, null, null, null, null, null);
        Merchant merchant = merchant(null, null, null, null);
        merchant.settings = new MerchantSettings(List.of("ETH", "USDT"), null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null);
        assertEquals(List.of("ETH"), resolve(account, merchant).allowedCrypto());
    }

    @Test
    void xpubsComeFromTheAccountAndTheSandboxDefaultsFillTheRest() {
        Account account = account(null, null);
        account.settings = new AccountSettings(null, null, null, null, null, null, null, null, null,
                BillingSchedule.NONE, Map.of("bitcoin", "vpub-own"), null, null, null, null, null, null, null);
        MerchantConfiguration c = resolve(account, merchant(null, null, null, null));
        assertEquals("vpub-own", c.xpubs().get("bitcoin"));
        assertEquals("xpub-eth", c.xpubs().get("ethereum"));
    }

    @Test
    void kycIsOffAndThresholdsAbsentUnlessConfigured() {
        MerchantConfiguration c = resolve(account(null, null), merchant(null, null, null, null));
        assertFalse(c.kycEnabled());
        assertNull(c.kycThreshold());
        assertTrue(c.travelRulesRegionalThreshold().isEmpty());
        assertEquals(2, c.version());
    }

    @Test
    void carriesTheAccountsEmailAndItsSubscriptionEmailSwitches() {
        Account account = account(null, null);
        account.email = "billing@shop.example";
        MerchantConfiguration unset = resolve(account, merchant(null, null, null, null));
        assertEquals("billing@shop.example", unset.accountEmail());
        assertNull(unset.subscriptionsEmailCustomerOnPaymentFailed());
        assertNull(unset.subscriptionsEmailMerchantOnPaymentAttemptsExceeded());

        account.settings = new AccountSettings(null, null, null, null, null, null, null, null, null,
                BillingSchedule.NONE, null, null, null, null, null, null, true, false);
        MerchantConfiguration set = resolve(account, merchant(null, null, null, null));
        assertTrue(set.subscriptionsEmailCustomerOnPaymentFailed());
        assertFalse(set.subscriptionsEmailMerchantOnPaymentAttemptsExceeded());
    }

    private static MerchantConfiguration resolve(Account account, Merchant merchant) {
        return EffectiveConfiguration.resolve(account, merchant, DEFAULT_XPUBS);
    }

    private static Account account(BigDecimal highThreshold, Integer refundWindow) {
        Account account = new Account();
        account.id = UUID.randomUUID();
        account.updatedAt = OffsetDateTime.now();
        account.version = 1;
        account.settings = new AccountSettings(null, null, null, null, null, highThreshold, refundWindow, null, null,
                BillingSchedule.NONE, null, null, null, null, null, null, null, null);
        return account;
    }

    private static Merchant merchant(BigDecimal highThreshold, Integer refundWindow, Inherit inherit, CanSet canSet) {
        Merchant merchant = new Merchant();
        merchant.id = UUID.randomUUID();
        merchant.accountId = UUID.randomUUID();
        merchant.name = "Shop";
        merchant.descriptor = "Shop";
        merchant.country = "DE";
        merchant.region = "BE";
        merchant.status = Merchant.ENABLED;
        merchant.version = 1;
        merchant.updatedAt = OffsetDateTime.now();
        merchant.settings = new MerchantSettings(null, null, null, null, null, null, inherit, canSet, null, null, null,
                highThreshold, refundWindow, null, null, null);
        return merchant;
    }
}
