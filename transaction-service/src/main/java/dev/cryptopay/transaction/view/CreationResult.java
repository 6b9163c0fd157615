package dev.cryptopay.transaction.view;

import java.math.BigDecimal;
import java.util.List;

/**
 * The Transaction creation result of the interface document: answered by create transaction, create payment
 * request and verification. In status -3 the payment fields are {@code null} and the two lists say what a
 * verification needs; otherwise the lists are empty.
 *
 * @param assetAmount           what the customer sends, a plain decimal string with the asset's decimals
 * @param additionalCustomerFee the partner's customer fee in USD, included in assetAmount
 * @param cryptoFXRate          USD per one unit of the asset, locked until the payment request expires
 */
public record CreationResult(String transactionId, String qrData, String address, String assetAmount,
        BigDecimal additionalCustomerFee, BigDecimal cryptoFXRate, String paymentRequestId, String quoteID, int status,
        List<String> requiredFields, List<String> supportedDocumentTypes) {
}
