package dev.cryptopay.merchant.service;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.validation.Validation;
import jakarta.enterprise.context.ApplicationScoped;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.crypto.DeterministicKey;

/**
 * Checks the extended public keys of addressProvider with bitcoinj: Base58Check, BIP32 version bytes and a
 * valid curve point. Bitcoin takes testnet keys (tpub/vpub) in the sandbox and mainnet keys (xpub/zpub) in
 * production; EVM and Tron networks take xpub. A private key (xprv…) is refused: the service never holds one.
 */
@ApplicationScoped
public class ExtendedPublicKeys {

    private final boolean sandbox;

    public ExtendedPublicKeys(Environment environment) {
        this.sandbox = environment.isSandbox();
    }

    public void check(Validation v, String field, String network, String xpub) {
        Catalogue.Network known = Catalogue.get().network(network).orElse(null);
        if (known == null) {
            v.add(field, "is not a network of GET /assets");
            return;
        }
        if (xpub == null || xpub.isBlank() || xpub.length() > 200) {
            v.add(field, "must be an extended public key");
            return;
        }
        if (xpub.regionMatches(1, "prv", 0, 3)) {
            v.add(field, "is a private key; send only the extended public key");
            return;
        }
        BitcoinNetwork params = "bitcoin".equals(known.family()) && sandbox ? BitcoinNetwork.TESTNET
                : BitcoinNetwork.MAINNET;
        try {
            DeterministicKey key = DeterministicKey.deserializeB58(xpub, params);
            if (!key.isPubKeyOnly()) {
                v.add(field, "is a private key; send only the extended public key");
            }
        } catch (RuntimeException e) {
            v.add(field, "must be an extended public key for " + network
                    + ("bitcoin".equals(known.family()) ? (sandbox ? " (testnet: tpub or vpub)" : " (xpub or zpub)")
                            : " (xpub)"));
        }
    }
}
