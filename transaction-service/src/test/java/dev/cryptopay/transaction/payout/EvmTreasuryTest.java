package dev.cryptopay.transaction.payout;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The treasury key's check at the start and the address its wallet signs from. */
class EvmTreasuryTest {

    /** Account 0 of the public "test test ... junk" development mnemonic (anvil's and hardhat's first account). */
    private static final String DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

    @Test
    void theDevelopmentKeySignsFromItsWellKnownAddress() {
        assertEquals("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                new EvmTreasury("ethereum", null, 31337, DEV_KEY).address());
    }

    @ParameterizedTest
    @ValueSource(strings = {DEV_KEY, "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", "0x1",
        "0xAC0974BEC39A17E36BA4A6B4D238FF944BACB478CBED5EFCAE784D7BF4F2FF80"})
    void aKeyInHexPasses(String key) {
        assertDoesNotThrow(() -> EvmTreasury.checkKey("ethereum", key));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"0x", "0x0", "0x0000", "0xzz0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
        "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff801", " 0xac0974bec39a17e36ba4a6b4d238ff9",
        "-0x1"})
    void anythingElseStopsTheStartWithoutShowingTheKey(String key) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EvmTreasury.checkKey("ethereum", key));
        assertEquals("cryptopay.transaction.refunds.treasury.ethereum.private-key is not a private key in hex "
                + "(up to 64 hex digits, not zero)", e.getMessage());
        if (key != null && !key.isBlank() && key.length() > 4) {
            assertFalse(e.getMessage().contains(key.substring(2)));
        }
    }
}
