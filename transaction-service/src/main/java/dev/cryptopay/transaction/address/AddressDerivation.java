package dev.cryptopay.transaction.address;

import dev.cryptopay.support.catalogue.Catalogue;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bitcoinj.base.Base58;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.SegwitAddress;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * Receive addresses derived from an account-level extended public key at child {@code 0/index} (the external
 * chain of BIP44/BIP84). No private key is ever involved.
 * <ul>
 * <li>bitcoin: BIP84 P2WPKH, bech32 — {@code tb1…} on testnet (sandbox), {@code bc1…} on mainnet;</li>
 * <li>EVM (ethereum, base, polygon): Keccak-256 of the uncompressed key, last 20 bytes, EIP-55 checksummed;</li>
 * <li>tron: the same 20 bytes behind the 0x41 prefix, Base58Check.</li>
 * </ul>
 */
public final class AddressDerivation {

    /** Tron's address prefix byte. */
    static final int TRON_PREFIX = 0x41;
    /** Bounds {@link #EXTERNAL_CHAINS}: past it the cache starts again (a few thousand xpubs are in use at most). */
    static final int MAX_CACHED_CHAINS = 10_000;
    /**
     * The external chain key ({@code 0}) of each xpub read so far, by network parameters and xpub. Reading an xpub
     * (Base58Check, decompressing its point) and deriving its chain key cost as much as the child itself; both are the
     * same for every address of the xpub, so a creation derives one key, not two (keys are immutable; public data).
     */
    private static final Map<String, DeterministicKey> EXTERNAL_CHAINS = new ConcurrentHashMap<>();

    private AddressDerivation() {
    }

    /**
     * The address of child {@code 0/index} of {@code xpub} for {@code network}.
     *
     * @param testnet bitcoin keys and addresses of the test network (the sandbox)
     * @throws IllegalArgumentException when the xpub cannot be read for this network
     */
    public static String derive(String network, String xpub, long index, boolean testnet) {
        if (index < 0 || index > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("index out of the non-hardened range: " + index);
        }
        String family = Catalogue.get().network(network)
                .orElseThrow(() -> new IllegalArgumentException("unknown network " + network)).family();
        return switch (family) {
            case "bitcoin" -> bitcoin(xpub, index, testnet);
            case "evm" -> evm(child(xpub, index, BitcoinNetwork.MAINNET));
            case "tron" -> tron(child(xpub, index, BitcoinNetwork.MAINNET));
            default -> throw new IllegalArgumentException("no address scheme for network family " + family);
        };
    }

    static String bitcoin(String xpub, long index, boolean testnet) {
        BitcoinNetwork params = testnet ? BitcoinNetwork.TESTNET : BitcoinNetwork.MAINNET;
        DeterministicKey key = child(xpub, index, params);
        return SegwitAddress.fromHash(params, key.getPubKeyHash()).toBech32();
    }

    /** EIP-55 address of a public key. */
    public static String evm(DeterministicKey key) {
        return Keys.toChecksumAddress(Numeric.toHexString(keccakAddress(key)));
    }

    /** Base58Check tron address of a public key. */
    public static String tron(DeterministicKey key) {
        return tronAddress(keccakAddress(key));
    }

    /** Base58Check of 0x41 followed by the 20 address bytes. */
    public static String tronAddress(byte[] twentyBytes) {
        return Base58.encodeChecked(TRON_PREFIX, twentyBytes);
    }

    /** The last 20 bytes of Keccak-256 over the 64-byte uncompressed public key (without its 0x04 prefix). */
    static byte[] keccakAddress(DeterministicKey key) {
        byte[] uncompressed = key.getPubKeyPoint().getEncoded(false);
        byte[] hash = Hash.sha3(Arrays.copyOfRange(uncompressed, 1, uncompressed.length));
        return Arrays.copyOfRange(hash, hash.length - 20, hash.length);
    }

    private static DeterministicKey child(String xpub, long index, BitcoinNetwork params) {
        return HDKeyDerivation.deriveChildKey(externalChain(xpub, params), new ChildNumber((int) index, false));
    }

    private static DeterministicKey externalChain(String xpub, BitcoinNetwork params) {
        String key = params.name() + ':' + xpub;
        DeterministicKey external = EXTERNAL_CHAINS.get(key);
        if (external == null) {
            DeterministicKey account = DeterministicKey.deserializeB58(xpub, params);
            external = HDKeyDerivation.deriveChildKey(account, new ChildNumber(0, false));
            if (EXTERNAL_CHAINS.size() >= MAX_CACHED_CHAINS) {
                EXTERNAL_CHAINS.clear();
            }
            EXTERNAL_CHAINS.put(key, external);
        }
        return external;
    }
}
