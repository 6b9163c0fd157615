package dev.cryptopay.support.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import org.junit.jupiter.api.Test;

class CatalogueTest {

    private final Catalogue catalogue = Catalogue.get();

    @Test
    void holdsEveryIsoCountryOnce() {
        assertEquals(249, catalogue.countries().size());
        assertEquals(249, new HashSet<>(catalogue.countries()).size());
        assertTrue(catalogue.countries().stream().allMatch(c -> c.matches("[A-Z]{2}")));
        assertTrue(catalogue.isCountry("DE"));
        assertFalse(catalogue.isCountry("XX"));
        assertFalse(catalogue.isCountry("de"));
    }

    @Test
    void offersAtLeastTheAssetsOfDecisionsSection10() {
        assertTrue(catalogue.supports("BTC", "bitcoin"));
        assertTrue(catalogue.supports("ETH", "ethereum"));
        assertTrue(catalogue.supports("ETH", "base"));
        assertTrue(catalogue.supports("USDC", "ethereum"));
        assertTrue(catalogue.supports("USDC", "polygon"));
        assertTrue(catalogue.supports("USDC", "base"));
        assertTrue(catalogue.supports("USDT", "ethereum"));
        assertTrue(catalogue.supports("USDT", "tron"));
        assertFalse(catalogue.supports("BTC", "ethereum"));
        assertFalse(catalogue.supports("DOGE", "bitcoin"));
    }

    @Test
    void everyAssetNetworkIsACatalogueNetwork() {
        catalogue.assets().forEach(asset -> asset.networks()
                .forEach(n -> assertTrue(catalogue.network(n).isPresent(), asset.code() + " on " + n)));
        assertEquals(8, catalogue.asset("BTC").orElseThrow().decimals());
        assertEquals(18, catalogue.asset("ETH").orElseThrow().decimals());
        assertEquals(6, catalogue.asset("USDC").orElseThrow().decimals());
        assertEquals(6, catalogue.asset("USDT").orElseThrow().decimals());
        assertEquals(11155111L, catalogue.network("ethereum").orElseThrow().sandboxChainId());
    }
}
