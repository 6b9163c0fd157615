package dev.cryptopay.transaction.address;

import dev.cryptopay.support.catalogue.Catalogue;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bitcoinj.base.Base58;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.SegwitAddress;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.HDDerivationException;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.bitcoinj.crypto.HDUtils;
import org.bouncycastle.math.ec.ECPoint;
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
        byte[] keyHash = ECKey.fromPublicOnly(child(xpub, index, params), true).getPubKeyHash();
        return SegwitAddress.fromHash(params, keyHash).toBech32();
    }

    /** EIP-55 address of a public key. */
    public static String evm(ECPoint key) {
        return Keys.toChecksumAddress(Numeric.toHexString(keccakAddress(key)));
    }

    /** Base58Check tron address of a public key. */
    public static String tron(ECPoint key) {
        return tronAddress(keccakAddress(key));
    }

    /** Base58Check of 0x41 followed by the 20 address bytes. */
    public static String tronAddress(byte[] twentyBytes) {
        return Base58.encodeChecked(TRON_PREFIX, twentyBytes);
    }

    /** The last 20 bytes of Keccak-256 over the 64-byte uncompressed public key (without its 0x04 prefix). */
    static byte[] keccakAddress(ECPoint key) {
        byte[] uncompressed = key.getEncoded(false);
        byte[] hash = Hash.sha3(Arrays.copyOfRange(uncompressed, 1, uncompressed.length));
        return Arrays.copyOfRange(hash, hash.length - 20, hash.length);
    }

    /**
     * The public key of child {@code index} of the xpub's external chain: BIP32's public derivation (CKDpub), written
     * here on bitcoinj's primitives (its HMAC-SHA512, its curve and fixed-base multiplication) rather than through
     * {@link HDKeyDerivation#deriveChildKey}, because a {@link DeterministicKey} keeps only the compressed key: an EVM
     * or tron address then decompressed it again (a square root on the curve), and each child computed its parent's
     * fingerprint (a hash) that an address never uses. Both were a third of a derivation's CPU, about 3% of a
     * creation's in transaction-service (docs/performance.md, twentieth step). The known-answer tests (BIP84 and anvil
     * vectors) pin the result.
     */
    static ECPoint child(String xpub, long index, BitcoinNetwork params) {
        DeterministicKey parent = externalChain(xpub, params);
        byte[] data = ByteBuffer.allocate(37).put(parent.getPubKey()).putInt((int) index).array();
        byte[] i = HDUtils.hmacSha512(parent.getChainCode(), data);
        BigInteger il = new BigInteger(1, Arrays.copyOfRange(i, 0, 32));
        if (il.compareTo(ECKey.ecDomainParameters().getN()) >= 0) { // probability below 2^-127; BIP32 says to skip the index
            throw new HDDerivationException("Illegal derived key: I_L >= n at index " + index);
        }
        ECPoint point = ECKey.publicPointFromPrivate(il).add(parent.getPubKeyPoint()).normalize();
        if (point.isInfinity()) {
            throw new HDDerivationException("Illegal derived key: the point at infinity at index " + index);
        }
        return point;
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
