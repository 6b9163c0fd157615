package dev.cryptopay.transaction.view;

import java.math.BigDecimal;
import java.util.List;

/**
 * The full Transaction of the interface document, as GET /transaction/{id} answers it and as every event on
 * {@code payments.transactions.v1} carries it. Absent values are {@code null}, absent lists {@code []}.
 */
public record TransactionView(
        String transactionID,
        String accountID,
        String merchantID,
        String externalMID,
        String descriptor,
        String referenceNumber,
        String quoteID,
        int status,
        int paymentStatus,
        Amounts amounts,
        Compliance compliance,
        List<PaymentView> payments,
        List<RefundView> refunds,
        BigDecimal remainingLocal,
        BigDecimal remainingUSD,
        String cancellationReason,
        String createdAt,
        String updatedAt,
        String expiration) {

    public record Amounts(String currency, BigDecimal totalLocal, BigDecimal totalUSD, BigDecimal receivedUSD,
            BigDecimal customerFeeUSD, BigDecimal fxRateToUSD) {
    }

    public record Compliance(boolean kycTriggered, boolean travelRuleTriggered, KycDetailsView kycDetails,
            List<Object> resolutionLogs, String strFilingReference) {
    }

    /** What the Transaction shows of an accepted verification (street and postal code stay stored only). */
    public record KycDetailsView(String status, String documentType, String firstName, String lastName,
            String email, String country, List<DocumentView> documents, boolean customerStored,
            String submittedAt) {
    }

    public record DocumentView(String documentID, String side, String contentType, long sizeBytes) {
    }

    /**
     * A payment request. Additions to the document's fields: {@code cryptoFXRate} (USD per unit, locked until
     * {@code expiration}), {@code requiredConfirmations}, {@code fromAddress} (the first transfer's sender) and
     * {@code transfers}, every transfer seen to the address.
     */
    public record PaymentView(String paymentRequestID, String cryptoAsset, String cryptoNetwork, String address,
            BigDecimal expectedCrypto, BigDecimal receivedCrypto, BigDecimal expectedUSD, BigDecimal receivedUSD,
            String txnHash, int confirmationCount, BigDecimal gasFee, int status, String qrData, String expiration,
            BigDecimal cryptoFXRate, Integer requiredConfirmations, String fromAddress,
            List<TransferView> transfers) {
    }

    /**
     * One transfer to a payment request's address. {@code status}: {@code confirming}, {@code confirmed} or
     * {@code dropped} (left the chain in a reorganisation); {@code late}: arrived after the request or the
     * transaction had ended (recorded and counted as received, never changing a status).
     */
    public record TransferView(String txnHash, String fromAddress, BigDecimal amount, Long blockNumber,
            int confirmations, String status, boolean late, String detectedAt, String confirmedAt) {
    }

    /** Refund legs arrive with the refunds issue; until then the list is always empty. */
    public record RefundView(String refundID, String cryptoAsset, String cryptoNetwork, BigDecimal cryptoAmount,
            BigDecimal fiatAmount, String fiatCurrency, BigDecimal gasFee, String gasFeePayer, String receiverAddress,
            int status, String reason) {
    }
}
