package dev.cryptopay.transaction.kyc;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.transaction.domain.CustomerDetails;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The KYC gate of docs/decisions.md §11, worked out on the merchant's effective configuration:
 * <ul>
 * <li>KYC when {@code kycEnabled} and the local amount is at or above {@code kycThreshold} (no threshold: every
 * amount);</li>
 * <li>travel rule when the local amount is at or above the threshold of the merchant's region, looked up in
 * {@code travelRulesRegionalThreshold} by {@code region}, then by {@code country}.</li>
 * </ul>
 * For a payer wallet that screening lists as a custodial exchange, {@code kycThresholdCustodial} and
 * {@code travelRulesRegionalThresholdCustodial} apply instead (each falling back to its self-custody counterpart when
 * unset; docs/decisions.md §62).
 */
public final class KycPolicy {

    public static final List<String> SUPPORTED_DOCUMENT_TYPES = List.of("ID_CARD", "PASSPORT", "RESIDENCE_PERMIT",
            "DRIVERS");
    public static final String FIRST_NAME = "firstName";
    public static final String LAST_NAME = "lastName";
    public static final String EMAIL = "email";
    public static final String ADDRESS = "address";
    /** Travel rule: the wallet the customer pays from (docs/decisions.md §66). */
    public static final String ORIGINATOR_WALLET = "originatorWallet";

    private KycPolicy() {
    }

    /**
     * @param kycThreshold the KYC threshold compared against (null: none, every amount when KYC is enabled)
     * @param travelRuleThreshold the regional travel-rule threshold compared against (null: none applies)
     */
    public record Decision(boolean kycTriggered, boolean travelRuleTriggered, BigDecimal kycThreshold,
            BigDecimal travelRuleThreshold) {

        public boolean verificationRequired() {
            return kycTriggered || travelRuleTriggered;
        }
    }

    /** The gate for a self-custody (or unknown) wallet. */
    public static Decision decide(MerchantConfiguration merchant, BigDecimal totalLocal) {
        return decide(merchant, totalLocal, false);
    }

    /**
     * The gate with the custodial thresholds when {@code custodial} (a payer wallet screening lists as a custodial
     * exchange): {@code kycThresholdCustodial} and {@code travelRulesRegionalThresholdCustodial}, each falling back to
     * the self-custody one when the merchant has not set it. {@code kycEnabled} gates KYC either way.
     */
    public static Decision decide(MerchantConfiguration merchant, BigDecimal totalLocal, boolean custodial) {
        BigDecimal kycThreshold = custodial && merchant.kycThresholdCustodial() != null
                ? merchant.kycThresholdCustodial() : merchant.kycThreshold();
        boolean kyc = merchant.kycEnabled()
                && (kycThreshold == null || totalLocal.compareTo(kycThreshold) >= 0);
        BigDecimal regional = null;
        if (custodial) {
            regional = regionalThreshold(merchant.travelRulesRegionalThresholdCustodial(), merchant.region(),
                    merchant.country());
        }
        if (regional == null) {
            regional = regionalThreshold(merchant.travelRulesRegionalThreshold(), merchant.region(),
                    merchant.country());
        }
        boolean travelRule = regional != null && totalLocal.compareTo(regional) >= 0;
        return new Decision(kyc, travelRule, merchant.kycEnabled() ? kycThreshold : null, regional);
    }

    static BigDecimal regionalThreshold(Map<String, BigDecimal> thresholds, String region, String country) {
        if (thresholds == null || thresholds.isEmpty()) {
            return null;
        }
        if (region != null && thresholds.containsKey(region)) {
            return thresholds.get(region);
        }
        return country == null ? null : thresholds.get(country);
    }

    /**
     * The entries of {@code requiredFields}: firstName, lastName, email and address, less what the creation's
     * {@code optional} object already supplied (an address counts only when complete).
     */
    public static List<String> requiredFields(CustomerDetails prefill) {
        return requiredFields(prefill, false);
    }

    /**
     * As {@link #requiredFields(CustomerDetails)}, plus {@code originatorWallet} when the travel rule applies: the
     * originator data of FATF R.16 is the name, the account number (for a crypto transfer the paying wallet's
     * address) and the physical address, which every verification already collects (docs/decisions.md §66).
     */
    public static List<String> requiredFields(CustomerDetails prefill, boolean travelRule) {
        CustomerDetails p = prefill == null ? CustomerDetails.empty() : prefill;
        List<String> required = new ArrayList<>();
        if (blank(p.firstName())) {
            required.add(FIRST_NAME);
        }
        if (blank(p.lastName())) {
            required.add(LAST_NAME);
        }
        if (blank(p.email())) {
            required.add(EMAIL);
        }
        if (!p.hasCompleteAddress()) {
            required.add(ADDRESS);
        }
        if (travelRule) {
            required.add(ORIGINATOR_WALLET);
        }
        return required;
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
