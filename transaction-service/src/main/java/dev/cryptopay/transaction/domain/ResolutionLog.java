package dev.cryptopay.transaction.domain;

import com.fasterxml.jackson.annotation.JsonValue;
import java.math.BigDecimal;

/**
 * One entry of {@code compliance.resolutionLogs} (docs/decisions.md §59): what was decided, on which trigger and
 * rule, against which threshold, and by whom. Entries are only ever appended.
 *
 * @param at when the decision was taken (RFC 3339)
 * @param trigger what raised it
 * @param rule the rule applied, for example {@code autoRefundConfig.sanction} or {@code kycThresholdCustodial}
 * @param threshold the threshold compared against, in the transaction's local currency (null when none applies)
 * @param outcome what was done
 * @param actor {@code system}, or {@code operator:<subject>} for an operator's decision
 * @param detail a short free text (screening category and list name, refund id, report reference); never personal data
 */
public record ResolutionLog(String at, Trigger trigger, String rule, BigDecimal threshold, Outcome outcome,
        String actor, String detail) {

    public static final String SYSTEM = "system";

    public static String operator(String subject) {
        return "operator:" + subject;
    }

    /** What raised a compliance decision. */
    public enum Trigger {
        SANCTION("sanction"), AML("aml"), FRAUD("fraud"), OVERPAYMENT("overpayment"), VENDOR_STATUS("vendor-status"),
        CUSTODIAL("custodial"), TRAVEL_RULE("travel-rule"), KYC("kyc"), SCREENING("screening"), STR("str");

        private final String wire;

        Trigger(String wire) {
            this.wire = wire;
        }

        @JsonValue
        public String wire() {
            return wire;
        }
    }

    /** What a compliance decision did. */
    public enum Outcome {
        PASSED("passed"), REFUNDED("refunded"), HELD("held"), RELEASED("released"),
        VERIFICATION_REQUIRED("verification-required"), RESTORED("restored"), FILED("filed");

        private final String wire;

        Outcome(String wire) {
            this.wire = wire;
        }

        @JsonValue
        public String wire() {
            return wire;
        }
    }
}
