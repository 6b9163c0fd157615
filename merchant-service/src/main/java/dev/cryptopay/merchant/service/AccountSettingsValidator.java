package dev.cryptopay.merchant.service;

import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.domain.Settings.BillingSchedule;
import dev.cryptopay.merchant.domain.SettingsFields;
import dev.cryptopay.support.validation.Validation;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;

/**
 * The rules of {@link AccountSettings} (docs/merchants.md, "Account configuration"): a new account setting gets its
 * check here. The account's updates are partial, so only the fields a body sends are checked (stored values were
 * checked when they were written).
 */
@ApplicationScoped
public class AccountSettingsValidator {

    public static final List<String> SETTLEMENT_FREQUENCIES = List.of("hourly", "six_hourly", "daily", "weekly",
            "biweekly", "monthly");

    private final ExtendedPublicKeys xpubs;

    public AccountSettingsValidator(ExtendedPublicKeys xpubs) {
        this.xpubs = xpubs;
    }

    /** Checks the fields of {@code s} named in {@code sent}. */
    public void validate(Validation v, AccountSettings s, Set<String> sent) {
        if (sent.contains("allowedCrypto")) {
            SettingsRules.assetCodes(v, "allowedCrypto", s.allowedCrypto());
        }
        if (sent.contains("allowedWallets")) {
            SettingsRules.wallets(v, s.allowedWallets());
        }
        if (sent.contains("allowedWalletsConfig")) {
            SettingsRules.walletConfigs(v, s.allowedWalletsConfig());
        }
        if (sent.contains("checkoutConfig")) {
            SettingsRules.checkout(v, s.checkoutConfig());
        }
        if (sent.contains("cryptoNetworkConfigs")) {
            SettingsRules.networkConfigs(v, s.cryptoNetworkConfigs());
        }
        if (sent.contains("highThreshold")) {
            SettingsRules.amount(v, "highThreshold", s.highThreshold());
        }
        if (sent.contains("refundWindowHours")) {
            SettingsRules.refundWindow(v, s.refundWindowHours());
        }
        if (sent.contains("support")) {
            SettingsRules.support(v, s.support());
        }
        if (sent.contains("fees")) {
            SettingsRules.fees(v, "fees", s.fees());
        }
        billing(v, s.billing(), sent);

        // operator-only
        if (sent.contains("addressProvider") && s.addressProvider() != null) {
            s.addressProvider().forEach((network, xpub) -> xpubs.check(v, "addressProvider." + network, network, xpub));
        }
        if (sent.contains("defaultRecommendedNetwork")) {
            v.network("defaultRecommendedNetwork", s.defaultRecommendedNetwork());
        }
        if (sent.contains("processingFeeConfig") && s.processingFeeConfig() != null) {
            v.between("processingFeeConfig.basisPoints", s.processingFeeConfig().basisPoints(), BigDecimal.ZERO,
                    SettingsRules.MAX_BPS);
            SettingsRules.amount(v, "processingFeeConfig.flatCents", s.processingFeeConfig().flatCents());
        }
        if (sent.contains("settlementAnchor") && s.settlementAnchor() != null) {
            try {
                OffsetDateTime.parse(s.settlementAnchor());
            } catch (DateTimeParseException e) {
                v.add("settlementAnchor", "must be an RFC 3339 timestamp");
            }
        }
        if (sent.contains("settlementFrequency")) {
            v.oneOf("settlementFrequency", s.settlementFrequency(), SETTLEMENT_FREQUENCIES);
        }
        // autoRefundConfig and the subscription e-mail switches: any boolean (or absent) is valid
    }

    /** Billing schedule: every fee an amount (≥ 0), every date {@code YYYY-MM-DD}, whatever their number. */
    private static void billing(Validation v, BillingSchedule billing, Set<String> sent) {
        for (RecordComponent c : BillingSchedule.class.getRecordComponents()) {
            if (!sent.contains(c.getName())) {
                continue;
            }
            Object value = SettingsFields.value(c, billing);
            if (value instanceof BigDecimal fee) {
                SettingsRules.amount(v, c.getName(), fee);
            } else if (value instanceof String date) {
                try {
                    LocalDate.parse(date);
                } catch (DateTimeParseException e) {
                    v.add(c.getName(), "must be a date YYYY-MM-DD");
                }
            }
        }
    }
}
