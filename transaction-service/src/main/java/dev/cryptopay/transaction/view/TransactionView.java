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

    /** A payment request; {@code cryptoFXRate} (USD per unit, locked until {@code expiration}) is an addition. */
    public record PaymentView(String paymentRequestID, String cryptoAsset, String cryptoNetwork, String address,
            BigDecimal expectedCrypto, BigDecimal receivedCrypto, BigDecimal expectedUSD, BigDecimal receivedUSD,
            String txnHash, int confirmationCount, BigDecimal gasFee, int status, String qrData, String expiration,
            BigDecimal cryptoFXRate) {
    }

    /** Refund legs arrive with the refunds issue; until then the list is always empty. */
    public record RefundView(String refundID, String cryptoAsset, String cryptoNetwork, BigDecimal cryptoAmount,
            BigDecimal fiatAmount, String fiatCurrency, BigDecimal gasFee, String gasFeePayer, String receiverAddress,
            int status, String reason) {
    }
}
