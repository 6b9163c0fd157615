package dev.cryptopay.transaction.qr;

import dev.cryptopay.support.catalogue.Catalogue;
import dev.cryptopay.transaction.quote.Money;
import java.math.BigDecimal;

/**
 * The {@code qrData} of a payment request: the wallet payment URI of docs/decisions.md §10.
 * <ul>
 * <li>bitcoin, BIP21: {@code bitcoin:<address>?amount=<btc>}</li>
 * <li>EVM native coin, EIP-681: {@code ethereum:<address>@<chainId>?value=<wei>}</li>
 * <li>EVM token, EIP-681: {@code ethereum:<token contract>@<chainId>/transfer?address=<address>&uint256=<units>}</li>
 * <li>tron (no standard exists; our choice, documented): {@code tron:<address>?amount=<decimal>} for TRX and
 * {@code tron:<address>?contract=<TRC-20 contract>&amount=<decimal>} for tokens</li>
 * </ul>
 * Amounts are written plainly (no exponent); wei and token units are whole numbers.
 */
public final class PaymentUri {

    private PaymentUri() {
    }

    /**
     * @param tokenContract the asset's contract on this network; null for the network's native coin
     * @param chainId       the EVM chain id of the running environment; ignored elsewhere
     */
    public static String of(Catalogue.Network network, Catalogue.Asset asset, String address, BigDecimal amount,
            String tokenContract, Long chainId) {
        boolean token = tokenContract != null;
        return switch (network.family()) {
            case "bitcoin" -> "bitcoin:" + address + "?amount=" + Money.plain(amount.stripTrailingZeros());
            case "evm" -> token
                    ? "ethereum:" + tokenContract + "@" + chainId + "/transfer?address=" + address + "&uint256="
                            + Money.smallestUnits(amount, asset.decimals())
                    : "ethereum:" + address + "@" + chainId + "?value=" + Money.smallestUnits(amount, asset.decimals());
            case "tron" -> token
                    ? "tron:" + address + "?contract=" + tokenContract + "&amount=" + Money.plain(amount.stripTrailingZeros())
                    : "tron:" + address + "?amount=" + Money.plain(amount.stripTrailingZeros());
            default -> throw new IllegalArgumentException("no payment URI for network family " + network.family());
        };
    }
}
