package dev.cryptopay.merchant.rest;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.events.MerchantConfiguration.FeeSchedule;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.domain.Settings.AutoRefundConfig;
import dev.cryptopay.merchant.domain.Settings.CheckoutConfig;
import dev.cryptopay.merchant.domain.Settings.ProcessingFeeConfig;
import dev.cryptopay.merchant.domain.Settings.Support;
import dev.cryptopay.merchant.domain.Settings.WalletConfig;
import dev.cryptopay.merchant.rest.MerchantDtos.NetworkConfigIn;
import dev.cryptopay.merchant.service.ExtendedPublicKeys;
import dev.cryptopay.support.validation.Validation;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The account configuration object of {@code GET/PUT /accounts/{accountUUID}/config} and the operator's
 * account update: which fields exist, which are read-only, how a partial body is checked and merged, and the
 * full answer (every documented field present; null when unset, arrays [] when empty).
 */
final class AccountConfigFields {

    /** Billing schedule fee fields (numbers ≥ 0). */
    static final List<String> BILLING_FEES = List.of("transactionFee", "transactionFeeRate", "settlementFee",
            "authorizationFee", "complianceFee", "annualComplianceFee", "oneTimeKYCFee", "oneTimeEquipmentFee",
            "oneTimeTerminationFee", "oneTimeWeb3SecurityFee", "monthlyProcessingFee", "monthlyNonProcessingFee",
            "monthlyAPIDataFee", "monthlyDashboardFee", "monthlyEquipmentFee", "monthlyPremiumSupportFee",
            "monthlyTerminalRentalFee", "terminalLeaseFee", "web3SecurityFee");
    /** Billing schedule date fields ({@code YYYY-MM-DD}). */
    static final List<String> BILLING_DATES = List.of("complianceStartDate", "complianceEndDate",
            "terminalLeaseStartDate", "terminalLeaseEndDate", "web3SecurityStartDate", "web3SecurityEndDate");
    /** Set only by the operator; a merchant's PUT naming one of them is refused with 400. */
    static final List<String> READ_ONLY = List.of("addressProvider", "autoRefundConfig", "defaultRecommendedNetwork",
            "processingFeeConfig", "settlementAnchor", "settlementFrequency",
            "subscriptionsEmailCustomerOnPaymentFailed", "subscriptionsEmailMerchantOnPaymentAttemptsExceeded");
    static final List<String> SETTLEMENT_FREQUENCIES = List.of("hourly", "six_hourly", "daily", "weekly", "biweekly",
            "monthly");
    private static final Set<String> WRITABLE = Set.of("allowedCrypto", "allowedWallets", "allowedWalletsConfig",
            "checkoutConfig", "cryptoNetworkConfigs", "highThreshold", "refundWindowHours", "support", "fees");

    private AccountConfigFields() {
    }

    /** Checks a merchant-facing partial body and merges it into {@code current}. */
    static AccountSettings mergeWritable(JsonNode body, AccountSettings current, ObjectMapper mapper) {
        Validation v = new Validation();
        requireObject(body, v);
        body.fieldNames().forEachRemaining(name -> {
            if (READ_ONLY.contains(name)) {
                v.add(name, "is read-only: the service operator sets it");
            } else if (!WRITABLE.contains(name) && !BILLING_FEES.contains(name) && !BILLING_DATES.contains(name)) {
                v.add(name, "is not a field of the account configuration");
            }
        });
        AccountSettings c = current;
        List<String> allowedCrypto = has(body, "allowedCrypto")
                ? SettingsValidator.assetList(v, "allowedCrypto",
                        read(body, "allowedCrypto", new TypeReference<List<String>>() { }, mapper, v))
                : c.allowedCrypto();
        List<String> wallets = has(body, "allowedWallets")
                ? read(body, "allowedWallets", new TypeReference<List<String>>() { }, mapper, v) : c.allowedWallets();
        List<WalletConfig> walletConfigs = has(body, "allowedWalletsConfig")
                ? read(body, "allowedWalletsConfig", new TypeReference<List<WalletConfig>>() { }, mapper, v)
                : c.allowedWalletsConfig();
        SettingsValidator.wallets(v, has(body, "allowedWallets") ? wallets : null,
                has(body, "allowedWalletsConfig") ? walletConfigs : null);
        CheckoutConfig checkout = has(body, "checkoutConfig")
                ? read(body, "checkoutConfig", new TypeReference<CheckoutConfig>() { }, mapper, v) : c.checkoutConfig();
        if (has(body, "checkoutConfig")) {
            SettingsValidator.checkout(v, checkout);
        }
        var networkConfigs = has(body, "cryptoNetworkConfigs")
                ? SettingsValidator.networkConfigs(v, read(body, "cryptoNetworkConfigs",
                        new TypeReference<Map<String, NetworkConfigIn>>() { }, mapper, v))
                : c.cryptoNetworkConfigs();
        BigDecimal highThreshold = has(body, "highThreshold")
                ? number(body, "highThreshold", v) : c.highThreshold();
        SettingsValidator.amount(v, "highThreshold", highThreshold);
        Integer refundWindow = has(body, "refundWindowHours")
                ? read(body, "refundWindowHours", new TypeReference<Integer>() { }, mapper, v) : c.refundWindowHours();
        SettingsValidator.refundWindow(v, refundWindow);
        Support support = has(body, "support")
                ? read(body, "support", new TypeReference<Support>() { }, mapper, v) : c.support();
        if (has(body, "support") && support != null) {
            v.email("support.email", support.email()).httpUrl("support.link", support.link());
        }
        FeeSchedule fees = has(body, "fees") ? read(body, "fees", new TypeReference<FeeSchedule>() { }, mapper, v)
                : c.fees();
        SettingsValidator.fees(v, "fees", has(body, "fees") ? fees : null);

        Map<String, BigDecimal> billingFees = new TreeMap<>(c.billingFees() == null ? Map.of() : c.billingFees());
        for (String field : BILLING_FEES) {
            if (has(body, field)) {
                BigDecimal value = number(body, field, v);
                SettingsValidator.amount(v, field, value);
                putOrRemove(billingFees, field, value);
            }
        }
        Map<String, String> billingDates = new TreeMap<>(c.billingDates() == null ? Map.of() : c.billingDates());
        for (String field : BILLING_DATES) {
            if (has(body, field)) {
                putOrRemove(billingDates, field, date(body, field, v));
            }
        }
        v.throwIfInvalid();
        return new AccountSettings(allowedCrypto, wallets, walletConfigs, checkout, networkConfigs, highThreshold,
                refundWindow, support, fees, billingFees, billingDates, c.addressProvider(), c.autoRefundConfig(),
                c.defaultRecommendedNetwork(), c.processingFeeConfig(), c.settlementAnchor(), c.settlementFrequency(),
                c.subscriptionsEmailCustomerOnPaymentFailed(), c.subscriptionsEmailMerchantOnPaymentAttemptsExceeded());
    }

    /** Checks the operator's partial body (read-only fields only) and merges it into {@code current}. */
    static AccountSettings mergeReadOnly(JsonNode body, AccountSettings current, ObjectMapper mapper,
            ExtendedPublicKeys xpubs) {
        Validation v = new Validation();
        requireObject(body, v);
        body.fieldNames().forEachRemaining(name -> {
            if (!READ_ONLY.contains(name)) {
                v.add(name, "is not an operator field of the account (merchants set it with PUT /accounts/{id}/config)");
            }
        });
        AccountSettings c = current;
        Map<String, String> addressProvider = c.addressProvider();
        if (has(body, "addressProvider")) {
            addressProvider = read(body, "addressProvider", new TypeReference<Map<String, String>>() { }, mapper, v);
            if (addressProvider != null) {
                addressProvider.forEach((network, xpub) -> xpubs.check(v, "addressProvider." + network, network, xpub));
            }
        }
        AutoRefundConfig autoRefund = has(body, "autoRefundConfig")
                ? read(body, "autoRefundConfig", new TypeReference<AutoRefundConfig>() { }, mapper, v)
                : c.autoRefundConfig();
        String network = has(body, "defaultRecommendedNetwork")
                ? read(body, "defaultRecommendedNetwork", new TypeReference<String>() { }, mapper, v)
                : c.defaultRecommendedNetwork();
        v.network("defaultRecommendedNetwork", network);
        ProcessingFeeConfig processing = has(body, "processingFeeConfig")
                ? read(body, "processingFeeConfig", new TypeReference<ProcessingFeeConfig>() { }, mapper, v)
                : c.processingFeeConfig();
        if (processing != null) {
            v.between("processingFeeConfig.basisPoints", processing.basisPoints(), BigDecimal.ZERO,
                    SettingsValidator.MAX_BPS);
            SettingsValidator.amount(v, "processingFeeConfig.flatCents", processing.flatCents());
        }
        String anchor = has(body, "settlementAnchor")
                ? read(body, "settlementAnchor", new TypeReference<String>() { }, mapper, v) : c.settlementAnchor();
        if (anchor != null) {
            try {
                OffsetDateTime.parse(anchor);
            } catch (DateTimeParseException e) {
                v.add("settlementAnchor", "must be an RFC 3339 timestamp");
            }
        }
        String frequency = has(body, "settlementFrequency")
                ? read(body, "settlementFrequency", new TypeReference<String>() { }, mapper, v)
                : c.settlementFrequency();
        v.oneOf("settlementFrequency", frequency, SETTLEMENT_FREQUENCIES);
        Boolean emailCustomer = has(body, "subscriptionsEmailCustomerOnPaymentFailed")
                ? read(body, "subscriptionsEmailCustomerOnPaymentFailed", new TypeReference<Boolean>() { }, mapper, v)
                : c.subscriptionsEmailCustomerOnPaymentFailed();
        Boolean emailMerchant = has(body, "subscriptionsEmailMerchantOnPaymentAttemptsExceeded")
                ? read(body, "subscriptionsEmailMerchantOnPaymentAttemptsExceeded", new TypeReference<Boolean>() { },
                        mapper, v)
                : c.subscriptionsEmailMerchantOnPaymentAttemptsExceeded();
        v.throwIfInvalid();
        return new AccountSettings(c.allowedCrypto(), c.allowedWallets(), c.allowedWalletsConfig(), c.checkoutConfig(),
                c.cryptoNetworkConfigs(), c.highThreshold(), c.refundWindowHours(), c.support(), c.fees(),
                c.billingFees(), c.billingDates(), addressProvider, autoRefund, network, processing, anchor, frequency,
                emailCustomer, emailMerchant);
    }

    /** The full configuration object. */
    static ObjectNode view(AccountSettings s, ObjectMapper mapper) {
        ObjectNode out = mapper.createObjectNode();
        out.set("allowedCrypto", mapper.valueToTree(s.allowedCrypto() == null ? List.of() : s.allowedCrypto()));
        out.set("allowedWallets", mapper.valueToTree(s.allowedWallets() == null ? List.of() : s.allowedWallets()));
        out.set("allowedWalletsConfig",
                mapper.valueToTree(s.allowedWalletsConfig() == null ? List.of() : s.allowedWalletsConfig()));
        out.set("checkoutConfig", mapper.valueToTree(s.checkoutConfig()));
        out.set("cryptoNetworkConfigs", mapper.valueToTree(MerchantMapper.networkConfigs(s.cryptoNetworkConfigs())));
        out.set("highThreshold", mapper.valueToTree(s.highThreshold()));
        out.set("refundWindowHours", mapper.valueToTree(s.refundWindowHours()));
        out.set("support", mapper.valueToTree(s.support()));
        out.set("fees", mapper.valueToTree(s.fees()));
        for (String field : BILLING_FEES) {
            out.set(field, mapper.valueToTree(s.billingFees() == null ? null : s.billingFees().get(field)));
        }
        for (String field : BILLING_DATES) {
            out.set(field, mapper.valueToTree(s.billingDates() == null ? null : s.billingDates().get(field)));
        }
        out.set("addressProvider", mapper.valueToTree(s.addressProvider()));
        out.set("autoRefundConfig", mapper.valueToTree(s.autoRefundConfig()));
        out.set("defaultRecommendedNetwork", mapper.valueToTree(s.defaultRecommendedNetwork()));
        out.set("processingFeeConfig", mapper.valueToTree(s.processingFeeConfig()));
        out.set("settlementAnchor", mapper.valueToTree(s.settlementAnchor()));
        out.set("settlementFrequency", mapper.valueToTree(s.settlementFrequency()));
        out.set("subscriptionsEmailCustomerOnPaymentFailed",
                mapper.valueToTree(s.subscriptionsEmailCustomerOnPaymentFailed()));
        out.set("subscriptionsEmailMerchantOnPaymentAttemptsExceeded",
                mapper.valueToTree(s.subscriptionsEmailMerchantOnPaymentAttemptsExceeded()));
        return out;
    }

    private static void requireObject(JsonNode body, Validation v) {
        if (body == null || !body.isObject()) {
            v.add("body", "must be a JSON object");
            v.throwIfInvalid();
        }
    }

    private static boolean has(JsonNode body, String field) {
        return body.has(field);
    }

    private static <T> T read(JsonNode body, String field, TypeReference<T> type, ObjectMapper mapper, Validation v) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            return mapper.readerFor(type).readValue(node);
        } catch (java.io.IOException | IllegalArgumentException e) {
            v.add(field, "has the wrong type or format");
            return null;
        }
    }

    private static BigDecimal number(JsonNode body, String field, Validation v) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isNumber()) {
            v.add(field, "must be a number");
            return null;
        }
        return node.decimalValue();
    }

    private static String date(JsonNode body, String field, Validation v) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            return LocalDate.parse(node.asText()).toString();
        } catch (DateTimeParseException e) {
            v.add(field, "must be a date YYYY-MM-DD");
            return null;
        }
    }

    private static <V> void putOrRemove(Map<String, V> map, String key, V value) {
        if (value == null) {
            map.remove(key);
        } else {
            map.put(key, value);
        }
    }
}
