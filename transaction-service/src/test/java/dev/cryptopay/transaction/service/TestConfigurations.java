package dev.cryptopay.transaction.service;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.events.MerchantConfiguration.AssetNetworkConfig;
import dev.cryptopay.events.MerchantConfiguration.FeeLine;
import dev.cryptopay.events.MerchantConfiguration.FeeSchedule;
import dev.cryptopay.events.MerchantConfiguration.PartnerFees;
import dev.cryptopay.support.catalogue.Catalogue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Effective merchant configurations as merchant-service publishes them, for tests: an enabled sandbox merchant
 * accepting the whole catalogue with the platform defaults and the sandbox xpubs, changed by a builder.
 */
public final class TestConfigurations {

    public static final Map<String, String> SANDBOX_XPUBS = Map.of(
            "bitcoin", "vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc",
            "ethereum", "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP",
            "base", "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP",
            "polygon", "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP",
            "tron", "xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd");

    private TestConfigurations() {
    }

    public static MerchantConfiguration merchant(UnaryOperator<Builder> changes) {
        return changes.apply(new Builder()).build();
    }

    /** Mutable stand-in for the record's many components. */
    public static final class Builder {
        UUID merchantId = UUID.randomUUID();
        UUID accountId = UUID.randomUUID();
        String externalMID;
        String name = "Corner Shop";
        String descriptor = "CORNER SHOP";
        String country = "DE";
        String region = "BE";
        int status = MerchantConfiguration.ENABLED;
        boolean fxRateAllowed;
        List<String> allowedCrypto = Catalogue.get().assets().stream().map(Catalogue.Asset::code).toList();
        Map<String, Map<String, AssetNetworkConfig>> networkConfigs;
        boolean kycEnabled;
        BigDecimal kycThreshold;
        Map<String, BigDecimal> travelRules = Map.of();
        FeeLine customerFee;
        Map<String, String> xpubs = SANDBOX_XPUBS;
        long version = 1;
        Integer qrExpirationSeconds;
        Integer minConfirmsLow;
        Integer minConfirmsHigh;
        BigDecimal highThreshold;
        Integer refundWindowHours = 72;
        Map<String, Boolean> autoRefund = Map.of();
        BigDecimal kycThresholdCustodial;
        Map<String, BigDecimal> travelRulesCustodial = Map.of();

        public Builder merchantId(UUID value) {
            merchantId = value;
            return this;
        }

        public Builder accountId(UUID value) {
            accountId = value;
            return this;
        }

        public Builder externalMID(String value) {
            externalMID = value;
            return this;
        }

        public Builder descriptor(String value) {
            descriptor = value;
            return this;
        }

        public Builder country(String value) {
            country = value;
            return this;
        }

        public Builder region(String value) {
            region = value;
            return this;
        }

        public Builder status(int value) {
            status = value;
            return this;
        }

        public Builder fxRateAllowed(boolean value) {
            fxRateAllowed = value;
            return this;
        }

        public Builder allowedCrypto(String... codes) {
            allowedCrypto = List.of(codes);
            return this;
        }

        public Builder kycEnabled(boolean value) {
            kycEnabled = value;
            return this;
        }

        public Builder kycThreshold(BigDecimal value) {
            kycThreshold = value;
            return this;
        }

        public Builder travelRules(Map<String, BigDecimal> value) {
            travelRules = value;
            return this;
        }

        public Builder customerFee(String basisPoints, String flatCents) {
            customerFee = new FeeLine(new BigDecimal(basisPoints), new BigDecimal(flatCents));
            return this;
        }

        public Builder xpubs(Map<String, String> value) {
            xpubs = value;
            return this;
        }

        public Builder version(long value) {
            version = value;
            return this;
        }

        public Builder qrExpirationSeconds(int seconds) {
            qrExpirationSeconds = seconds;
            return this;
        }

        /** The same confirmation counts for every accepted asset and network. */
        public Builder minConfirms(int low, int high) {
            minConfirmsLow = low;
            minConfirmsHigh = high;
            return this;
        }

        public Builder highThreshold(BigDecimal value) {
            highThreshold = value;
            return this;
        }

        public Builder refundWindowHours(Integer hours) {
            refundWindowHours = hours;
            return this;
        }

        /** The account's autoRefundConfig switches (aml, fraud, sanction, overpayment, vendorStatus). */
        public Builder autoRefund(Map<String, Boolean> value) {
            autoRefund = value;
            return this;
        }

        public Builder kycThresholdCustodial(BigDecimal value) {
            kycThresholdCustodial = value;
            return this;
        }

        public Builder travelRulesCustodial(Map<String, BigDecimal> value) {
            travelRulesCustodial = value;
            return this;
        }

        public MerchantConfiguration build() {
            Map<String, Map<String, AssetNetworkConfig>> configs = new TreeMap<>();
            for (String code : allowedCrypto) {
                for (String network : Catalogue.get().asset(code).orElseThrow().networks()) {
                    Catalogue.Network n = Catalogue.get().network(network).orElseThrow();
                    configs.computeIfAbsent(network, k -> new TreeMap<>()).put(code, new AssetNetworkConfig(
                            minConfirmsLow != null ? minConfirmsLow : n.defaultMinConfirmsLow(),
                            minConfirmsHigh != null ? minConfirmsHigh : n.defaultMinConfirmsHigh(),
                            qrExpirationSeconds != null ? qrExpirationSeconds : n.defaultQrExpirationSeconds()));
                }
            }
            FeeSchedule fees = customerFee == null ? null : new FeeSchedule(null, new PartnerFees(customerFee, null));
            return new MerchantConfiguration(merchantId.toString(), accountId.toString(), externalMID, name, null,
                    descriptor, country, region, status, fxRateAllowed, new ArrayList<>(allowedCrypto), List.of(),
                    networkConfigs != null ? networkConfigs : configs, highThreshold, kycEnabled, kycThreshold,
                    kycThresholdCustodial, travelRules, travelRulesCustodial, refundWindowHours, false, fees, null, xpubs,
                    autoRefund, null, null, null, version,
                    "2026-11-21T10:00:00Z");
        }
    }
}
