package dev.cryptopay.transaction.qr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.catalogue.Catalogue;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.Properties;
import org.bitcoinj.base.Base58;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Keys;

class PaymentUriTest {

    private final Catalogue catalogue = Catalogue.get();

    @Test
    void bitcoinIsBip21WithTheAmountInBtc() {
        assertEquals("bitcoin:tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl?amount=0.0015",
                PaymentUri.of(net("bitcoin"), asset("BTC"), "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl",
                        new BigDecimal("0.00150000"), null, null));
    }

    @Test
    void etherIsEip681WithTheValueInWei() {
        assertEquals("ethereum:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266@11155111?value=3125000000000000",
                PaymentUri.of(net("ethereum"), asset("ETH"), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
                        new BigDecimal("0.003125000000000000"), null, 11155111L));
    }

    @Test
    void tokensAreEip681TransfersInTheTokensSmallestUnits() {
        assertEquals("ethereum:0x036CbD53842c5426634e7929541eC2318f3dCF7e@84532/transfer"
                + "?address=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&uint256=108500000",
                PaymentUri.of(net("base"), asset("USDC"), "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                        new BigDecimal("108.500000"), "0x036CbD53842c5426634e7929541eC2318f3dCF7e", 84532L));
    }

    @Test
    void tronTokensNameTheirContract() {
        assertEquals("tron:TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH?contract=TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t&amount=12.5",
                PaymentUri.of(net("tron"), asset("USDT"), "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH",
                        new BigDecimal("12.500000"), "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", null));
    }

    /** Every configured token contract is a well-formed address of its network (catches a mistyped digit). */
    @Test
    void configuredTokenContractsAreValidAddresses() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("application.properties")) {
            properties.load(in);
        }
        String prefix = "cryptopay.transaction.token-contracts.";
        long checked = properties.stringPropertyNames().stream().filter(k -> k.startsWith(prefix)).peek(key -> {
            String[] parts = key.substring(prefix.length()).split("\\.");
            String network = parts[1];
            String asset = parts[2];
            String contract = properties.getProperty(key);
            assertTrue(catalogue.supports(asset, network), key);
            if ("tron".equals(network)) {
                byte[] decoded = Base58.decodeChecked(contract);
                assertEquals(21, decoded.length, key);
                assertEquals(0x41, decoded[0] & 0xFF, key);
            } else {
                assertEquals(Keys.toChecksumAddress(contract), contract, key + " is not EIP-55 checksummed");
            }
        }).count();
        assertEquals(10, checked);
    }

    private Catalogue.Network net(String name) {
        return catalogue.network(name).orElseThrow();
    }

    private Catalogue.Asset asset(String code) {
        return catalogue.asset(code).orElseThrow();
    }
}
