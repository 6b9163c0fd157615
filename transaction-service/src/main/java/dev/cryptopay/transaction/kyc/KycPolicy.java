package dev.cryptopay.transaction.kyc;

import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.transaction.domain.CustomerDetails;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The KYC gate of decisions §11, worked out on the merchant's effective configuration:
 * <ul>
 * <li>KYC when {@code kycEnabled} and the local amount is at or above {@code kycThreshold} (no threshold: every
 * amount);</li>
 * <li>travel rule when the local amount is at or above the threshold of the merchant's region, looked up in
 * {@code travelRulesRegionalThreshold} by {@code region}, then by {@code country}.</li>
 * </ul>
 * The custodial thresholds apply to custodial wallets, which a transaction cannot tell yet; they are not used.
 */
public final class KycPolicy {

    public static final List<String> SUPPORTED_DOCUMENT_TYPES = List.of("ID_CARD", "PASSPORT", "RESIDENCE_PERMIT",
            "DRIVERS");
    public static final String FIRST_NAME = "firstName";
    public static final String LAST_NAME = "lastName";
    public static final String EMAIL = "email";
    public static final String ADDRESS = "address";

    private KycPolicy() {
    }

    public record Decision(boolean kycTriggered, boolean travelRuleTriggered) {
        public boolean verificationRequired() {
            return kycTriggered || travelRuleTriggered;
        }
    }

    public static Decision decide(MerchantConfiguration merchant, BigDecimal totalLocal) {
        boolean kyc = merchant.kycEnabled()
                && (merchant.kycThreshold() == null || totalLocal.compareTo(merchant.kycThreshold()) >= 0);
        BigDecimal regional = regionalThreshold(merchant.travelRulesRegionalThreshold(), merchant.region(),
                merchant.country());
        boolean travelRule = regional != null && totalLocal.compareTo(regional) >= 0;
        return new Decision(kyc, travelRule);
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
        return required;
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
