package dev.cryptopay.merchant.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.domain.Settings.BillingSchedule;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SettingsFieldsTest {

    /** docs/merchants.md, "Account configuration": the read-only fields. */
    private static final Set<String> READ_ONLY = Set.of("addressProvider", "autoRefundConfig",
            "defaultRecommendedNetwork", "processingFeeConfig", "settlementAnchor", "settlementFrequency",
            "subscriptionsEmailCustomerOnPaymentFailed", "subscriptionsEmailMerchantOnPaymentAttemptsExceeded");

    @Test
    void theAccountConfigurationsFieldsAreTheRecordsWithTheBillingScheduleInlined() {
        Set<String> names = SettingsFields.names(AccountSettings.class);
        assertEquals(9 + 25 + 8, names.size(), names.toString());
        assertTrue(names.containsAll(List.of("allowedCrypto", "cryptoNetworkConfigs", "support", "fees",
                "transactionFee", "web3SecurityFee", "complianceStartDate", "web3SecurityEndDate")));
        assertTrue(names.containsAll(READ_ONLY));
        assertFalse(names.contains("billing"), "unwrapped: its fields stand in its place");
        assertEquals(READ_ONLY, SettingsFields.operatorOnly(AccountSettings.class));
    }

    @Test
    void aMergeTakesOnlyTheFieldsSentANullSentClearsOne() {
        AccountSettings current = new AccountSettings(List.of("BTC"), null, null, null, null, new BigDecimal("5"), 48,
                null, null, new BillingSchedule(new BigDecimal("0.35"), null, null, null, null, null, null, null, null,
                        null, null, null, null, new BigDecimal("49"), null, null, null, null, null, "2026-01-01", null,
                        null, null, null, null),
                null, null, null, null, null, "weekly", null, null);
        AccountSettings changes = new AccountSettings(List.of("ETH"), null, null, null, null, null, 12, null, null,
                new BillingSchedule(null, null, null, null, null, null, null, null, null, null, null, null, null,
                        new BigDecimal("99"), null, null, null, null, null, null, null, null, null, null, null),
                null, null, null, null, null, null, null, null);

        AccountSettings merged = SettingsFields.merge(current, changes,
                Set.of("refundWindowHours", "transactionFee", "settlementFrequency"));

        assertEquals(List.of("BTC"), merged.allowedCrypto());
        assertEquals(new BigDecimal("5"), merged.highThreshold());
        assertEquals(12, merged.refundWindowHours());
        assertNull(merged.billing().transactionFee(), "sent as null: cleared");
        assertEquals(new BigDecimal("49"), merged.billing().monthlyDashboardFee(), "not sent: kept");
        assertEquals("2026-01-01", merged.billing().complianceStartDate());
        assertNull(merged.settlementFrequency());
    }
}
