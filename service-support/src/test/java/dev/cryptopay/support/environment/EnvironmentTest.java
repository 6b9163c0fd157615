package dev.cryptopay.support.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class EnvironmentTest {

    @Test
    void exactlyTheTwoNamesAreAccepted() {
        assertEquals(Environment.SANDBOX, Environment.parse("sandbox"));
        assertEquals(Environment.PRODUCTION, Environment.parse("production"));
        assertEquals(Environment.PRODUCTION, Environment.parse(" production\n"));
        assertTrue(Environment.SANDBOX.isSandbox());
        assertFalse(Environment.SANDBOX.isProduction());
        assertTrue(Environment.PRODUCTION.isProduction());
        assertEquals("production", Environment.PRODUCTION.wireName());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "  ", "prod", "Production", "SANDBOX", "sand box", "staging", "test", "dev"})
    void anythingElseIsRefusedNamingTheSettingAndTheChoices(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Environment.parse(value));
        assertTrue(e.getMessage().contains("cryptopay.environment"), e.getMessage());
        assertTrue(e.getMessage().contains("sandbox or production"), e.getMessage());
    }
}
