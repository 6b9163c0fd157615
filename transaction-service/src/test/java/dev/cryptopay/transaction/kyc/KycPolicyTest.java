package dev.cryptopay.transaction.kyc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.transaction.domain.CustomerDetails;
import dev.cryptopay.transaction.service.TestConfigurations;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KycPolicyTest {

    @Test
    void kycStartsAtTheThreshold() {
        var merchant = TestConfigurations.merchant(c -> c.kycEnabled(true).kycThreshold(new BigDecimal("1000")));
        assertFalse(KycPolicy.decide(merchant, new BigDecimal("999.99")).verificationRequired());
        assertTrue(KycPolicy.decide(merchant, new BigDecimal("1000.00")).kycTriggered());
        var off = TestConfigurations.merchant(c -> c.kycEnabled(false).kycThreshold(new BigDecimal("1")));
        assertFalse(KycPolicy.decide(off, new BigDecimal("5000")).verificationRequired());
        var noThreshold = TestConfigurations.merchant(c -> c.kycEnabled(true));
        assertTrue(KycPolicy.decide(noThreshold, new BigDecimal("0.01")).kycTriggered());
    }

    @Test
    void travelRuleUsesTheRegionFirstThenTheCountry() {
        var merchant = TestConfigurations.merchant(c -> c.region("BE").country("DE")
                .travelRules(Map.of("BE", new BigDecimal("500"), "DE", new BigDecimal("100"))));
        assertFalse(KycPolicy.decide(merchant, new BigDecimal("499")).verificationRequired());
        var decision = KycPolicy.decide(merchant, new BigDecimal("500"));
        assertTrue(decision.travelRuleTriggered());
        assertFalse(decision.kycTriggered());
        var byCountry = TestConfigurations.merchant(c -> c.region("BY").country("DE")
                .travelRules(Map.of("DE", new BigDecimal("100"))));
        assertTrue(KycPolicy.decide(byCountry, new BigDecimal("100")).travelRuleTriggered());
        assertEquals(Optional.empty(), Optional.ofNullable(KycPolicy.regionalThreshold(Map.of(), "BE", "DE")));
    }

    @Test
    void requiredFieldsLeaveOutWhatThePrefillSupplied() {
        assertEquals(List.of("firstName", "lastName", "email", "address"), KycPolicy.requiredFields(null));
        assertEquals(List.of("address"), KycPolicy.requiredFields(new CustomerDetails("Ada", "Lovelace",
                "ada@example.com", "1 Main St", "London", null, "N1", "GB")));
        assertEquals(List.of("firstName"), KycPolicy.requiredFields(new CustomerDetails(null, "Lovelace",
                "ada@example.com", "1 Main St", "London", "LND", "N1", "GB")));
    }

    @Test
    void aCustodialWalletUsesTheCustodialThresholdsFallingBackToTheSelfCustodyOnes() {
        var merchant = dev.cryptopay.transaction.service.TestConfigurations.merchant(c -> c.kycEnabled(true)
                .kycThreshold(new BigDecimal("1000")).kycThresholdCustodial(new BigDecimal("50"))
                .travelRules(java.util.Map.of("BE", new BigDecimal("5000")))
                .travelRulesCustodial(java.util.Map.of("BE", new BigDecimal("200"))));
        assertFalse(KycPolicy.decide(merchant, new BigDecimal("49.99"), true).verificationRequired());
        var atEdge = KycPolicy.decide(merchant, new BigDecimal("50"), true);
        assertTrue(atEdge.kycTriggered());
        assertFalse(atEdge.travelRuleTriggered());
        assertEquals(0, new BigDecimal("50").compareTo(atEdge.kycThreshold()));
        assertTrue(KycPolicy.decide(merchant, new BigDecimal("200"), true).travelRuleTriggered());
        assertFalse(KycPolicy.decide(merchant, new BigDecimal("200"), false).verificationRequired());
        var noCustodial = dev.cryptopay.transaction.service.TestConfigurations.merchant(c -> c.kycEnabled(true)
                .kycThreshold(new BigDecimal("1000")));
        assertFalse(KycPolicy.decide(noCustodial, new BigDecimal("999"), true).verificationRequired());
        assertTrue(KycPolicy.decide(noCustodial, new BigDecimal("1000"), true).kycTriggered());
    }
}
