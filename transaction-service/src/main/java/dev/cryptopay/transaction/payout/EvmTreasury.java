package dev.cryptopay.transaction.payout;

import dev.cryptopay.transaction.chain.ChainUnavailableException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.regex.Pattern;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.response.EthSendTransaction;
import org.web3j.utils.Numeric;

/**
 * The platform's treasury wallet on one EVM network (docs/decisions.md §9): signs payouts with its key (web3j) and sends
 * them to the node. Signing and sending are separate steps so the signed transaction can be stored first: sending it
 * again after a crash is harmless (same hash, same nonce), sending a second one would pay twice.
 */
public final class EvmTreasury {

    /** Gas of a plain value transfer, and the budget of an ERC-20 transfer (as the chain adapter quotes them). */
    static final BigInteger NATIVE_GAS = BigInteger.valueOf(21_000);
    static final BigInteger TOKEN_GAS = BigInteger.valueOf(65_000);

    /** A signed payout: its transaction hash and the raw transaction to send. */
    public record Signed(String txnHash, String raw) {
    }

    private static final Pattern HEX_KEY = Pattern.compile("[0-9a-fA-F]{1,64}");

    private final String network;
    private final Web3j web3j;
    private final long chainId;
    private final Credentials credentials;

    public EvmTreasury(String network, Web3j web3j, long chainId, String privateKey) {
        this.network = network;
        this.web3j = web3j;
        this.chainId = chainId;
        this.credentials = Credentials.create(privateKey);
    }

    /**
     * Fails when {@code privateKey} is not a private key in hex (up to 32 bytes, not zero, with or without {@code 0x}),
     * naming the network's setting but never the key. No curve arithmetic, so it is cheap enough for the start, where a
     * mistyped setting should stop the service rather than surface at its first payout.
     */
    public static void checkKey(String network, String privateKey) {
        String hex = privateKey == null ? "" : Numeric.cleanHexPrefix(privateKey);
        if (!HEX_KEY.matcher(hex).matches() || new BigInteger(hex, 16).signum() == 0) {
            throw new IllegalStateException("cryptopay.transaction.refunds.treasury." + network
                    + ".private-key is not a private key in hex (up to 64 hex digits, not zero)");
        }
    }

    public String address() {
        return credentials.getAddress();
    }

    /**
     * Signs a transfer of {@code amount} whole units to {@code to}: of the native asset when {@code tokenContract}
     * is null, else an ERC-20 {@code transfer} on that contract ({@code decimals} of the token). The nonce is the
     * treasury's next one as the node counts pending transactions, so the caller signs one payout at a time per
     * network and sends it before signing the next.
     */
    public Signed sign(String to, BigDecimal amount, String tokenContract, int decimals) {
        BigInteger units = amount.movePointRight(decimals).toBigIntegerExact();
        try {
            BigInteger nonce = web3j.ethGetTransactionCount(credentials.getAddress(), DefaultBlockParameterName.PENDING)
                    .send().getTransactionCount();
            BigInteger gasPrice = web3j.ethGasPrice().send().getGasPrice();
            RawTransaction transaction;
            if (tokenContract == null) {
                transaction = RawTransaction.createEtherTransaction(nonce, gasPrice, NATIVE_GAS, to, units);
            } else {
                String data = FunctionEncoder.encode(new Function("transfer",
                        List.of(new Address(to), new Uint256(units)), List.of()));
                transaction = RawTransaction.createTransaction(nonce, gasPrice, TOKEN_GAS, tokenContract, data);
            }
            String raw = Numeric.toHexString(TransactionEncoder.signMessage(transaction, chainId, credentials));
            return new Signed(Hash.sha3(raw), raw);
        } catch (IOException e) {
            throw new ChainUnavailableException(network, "the node could not be asked to sign a payout: "
                    + e.getClass().getSimpleName());
        }
    }

    /**
     * Sends a signed payout; true when the node has it. A node that already knows it (sent before a crash) may refuse
     * it as known or its nonce as used; that is success when the node has the transaction. False when the node
     * refuses it for a nonce another transaction of the treasury took: that signature can never be mined, so the
     * caller signs the payout again.
     */
    public boolean send(Signed payout) {
        try {
            EthSendTransaction answer = web3j.ethSendRawTransaction(payout.raw()).send();
            if (answer.hasError() && web3j.ethGetTransactionByHash(payout.txnHash()).send().getTransaction()
                    .isEmpty()) {
                String error = answer.getError().getMessage();
                if (error != null && error.toLowerCase(java.util.Locale.ROOT).contains("nonce too low")) {
                    return false;
                }
                throw new ChainUnavailableException(network, "the node refused a payout: " + error);
            }
            return true;
        } catch (IOException e) {
            throw new ChainUnavailableException(network, "the node could not be reached to send a payout: "
                    + e.getClass().getSimpleName());
        }
    }
}
