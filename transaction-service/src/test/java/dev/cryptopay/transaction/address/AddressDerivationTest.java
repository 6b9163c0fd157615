package dev.cryptopay.transaction.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Known-answer tests of the address schemes, against published vectors of well-known test mnemonics. */
class AddressDerivationTest {

    /** BIP84 test vector: account m/84'/0'/0' of "abandon ×11 about" (mainnet zpub). */
    static final String BIP84_ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
    /** The sandbox default: m/84'/1'/0' of the same mnemonic (testnet vpub). */
    static final String SANDBOX_VPUB = "vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc";
    /** The sandbox EVM default: m/44'/60'/0' of "test test … junk" (anvil's dev accounts). */
    static final String SANDBOX_EVM_XPUB = "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP";
    /** The sandbox tron default: m/44'/195'/0' of "abandon ×11 about". */
    static final String SANDBOX_TRON_XPUB = "xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd";

    @Test
    void bip84TestVectorGivesTheFirstTwoReceiveAddresses() {
        assertEquals("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
                AddressDerivation.derive("bitcoin", BIP84_ZPUB, 0, false));
        assertEquals("bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g",
                AddressDerivation.derive("bitcoin", BIP84_ZPUB, 1, false));
    }

    @Test
    void aCachedChainKeyGivesTheSameAddressesInAnyOrderAndNeverMixesNetworks() {
        // docs/performance.md: the xpub's external chain key is kept; later derivations must match the vectors, and the
        // key read with testnet parameters is not the one read with mainnet parameters.
        assertEquals("bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g",
                AddressDerivation.derive("bitcoin", BIP84_ZPUB, 1, false));
        assertEquals("tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97",
                AddressDerivation.derive("bitcoin", SANDBOX_VPUB, 1, true));
        for (int round = 0; round < 3; round++) {
            assertEquals("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
                    AddressDerivation.derive("bitcoin", BIP84_ZPUB, 0, false));
            assertEquals("tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl",
                    AddressDerivation.derive("bitcoin", SANDBOX_VPUB, 0, true));
        }
    }

    @Test
    void sandboxBitcoinAddressesAreTestnetBech32() {
        assertEquals("tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl",
                AddressDerivation.derive("bitcoin", SANDBOX_VPUB, 0, true));
        assertEquals("tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97",
                AddressDerivation.derive("bitcoin", SANDBOX_VPUB, 1, true));
    }

    @Test
    void sandboxEvmXpubDerivesAnvilsDevAccountsChecksummed() {
        assertEquals("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
                AddressDerivation.derive("ethereum", SANDBOX_EVM_XPUB, 0, true));
        assertEquals("0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                AddressDerivation.derive("ethereum", SANDBOX_EVM_XPUB, 1, true));
        assertEquals("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                AddressDerivation.derive("base", SANDBOX_EVM_XPUB, 2, true));
        assertEquals("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
                AddressDerivation.derive("polygon", SANDBOX_EVM_XPUB, 2, false));
    }

    @Test
    void tronAddressesOfKnownKeys() {
        // m/44'/195'/0'/0/0 and /0/1 of "abandon ×11 about", as TronLink and Ian Coleman's tool show them
        assertEquals("TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH",
                AddressDerivation.derive("tron", SANDBOX_TRON_XPUB, 0, true));
        assertEquals("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK",
                AddressDerivation.derive("tron", SANDBOX_TRON_XPUB, 1, true));
        // Tron's zero address: 0x41 followed by twenty zero bytes
        assertEquals("T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb", AddressDerivation.tronAddress(new byte[20]));
        // the key whose Ethereum address is 0xf39F…2266 has this tron address (same 20 bytes, 0x41 prefix)
        byte[] anvil0 = HexFormat.of().parseHex("f39fd6e51aad88f6f4ce6ab8827279cfffb92266");
        String tron = AddressDerivation.tronAddress(anvil0);
        assertTrue(tron.startsWith("T") && tron.length() == 34, tron);
    }

    @Test
    void refusesUnusableKeysAndIndexes() {
        assertThrows(IllegalArgumentException.class, () -> AddressDerivation.derive("ethereum", "xpubnonsense", 0, true));
        assertThrows(IllegalArgumentException.class,
                () -> AddressDerivation.derive("ethereum", SANDBOX_EVM_XPUB, 1L << 31, true));
        assertThrows(IllegalArgumentException.class, () -> AddressDerivation.derive("dogecoin", BIP84_ZPUB, 0, true));
    }
}
