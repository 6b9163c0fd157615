package dev.cryptopay.transaction.view;

import dev.cryptopay.transaction.domain.MerchantFees;
import dev.cryptopay.transaction.domain.ResolutionLog;
import java.math.BigDecimal;
import java.util.List;

/**
 * The full Transaction of the interface document, as GET /transaction/{id} answers it and as every event on
 * {@code payments.transactions.v1} carries it (there with {@code kycDetails} null). Absent values are {@code null},
 * absent lists {@code []}. Additions to the document's fields: {@code version} (1, 2, … one per event of the
 * transaction; the number of events published so far) and {@code merchantFees} (from success on: the merchant's
 * discount rate and fee schedule in force then).
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
        String expiration,
        long version,
        MerchantFees merchantFees) {

    /**
     * The customer's view, for a publishable key (docs/decisions.md §11): no personal data and no tipping off, so
     * {@code kycDetails}, {@code resolutionLogs}, {@code strFilingReference} and {@code heldForReview} are null.
     */
    public TransactionView customerView() {
        Compliance c = compliance;
        return new TransactionView(transactionID, accountID, merchantID, externalMID, descriptor, referenceNumber,
                quoteID, status, paymentStatus, amounts, new Compliance(c.kycTriggered(), c.travelRuleTriggered(),
                        null, null, null, null),
                payments, refunds, remainingLocal, remainingUSD, cancellationReason, createdAt, updatedAt,
                expiration, version, merchantFees);
    }

    /** The same transaction with {@code kycDetails} null: what events and webhooks carry (docs/decisions.md §7). */
    public TransactionView withoutKycDetails() {
        Compliance c = compliance;
        return new TransactionView(transactionID, accountID, merchantID, externalMID, descriptor, referenceNumber,
                quoteID, status, paymentStatus, amounts, new Compliance(c.kycTriggered(), c.travelRuleTriggered(),
                        null, c.resolutionLogs(), c.strFilingReference(), c.heldForReview()),
                payments, refunds, remainingLocal, remainingUSD, cancellationReason, createdAt, updatedAt,
                expiration, version, merchantFees);
    }

    public record Amounts(String currency, BigDecimal totalLocal, BigDecimal totalUSD, BigDecimal receivedUSD,
            BigDecimal customerFeeUSD, BigDecimal fxRateToUSD) {
    }

    /**
     * {@code heldForReview} (an addition, docs/decisions.md §59): true while a compliance hold keeps the transaction
     * at 0; {@code resolutionLogs}: every compliance decision, oldest first.
     */
    public record Compliance(boolean kycTriggered, boolean travelRuleTriggered, KycDetailsView kycDetails,
            List<ResolutionLog> resolutionLogs, String strFilingReference, Boolean heldForReview) {
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
     * {@code expiration}), {@code requiredConfirmations}, {@code fromAddress} (the first transfer's sender),
     * {@code transfers} (every transfer seen to the address), and what reporting reads (docs/decisions.md §8):
     * {@code createdAt}, {@code completedAt} (reached confirmed or underpaid), {@code gasFeeUnits} (the asset
     * {@code gasFee} is counted in: the network's native asset), {@code walletName}, {@code cryptoRatePerUSD}
     * (units of the asset per USD at the locked rate) and {@code fraudPass} (null until screened).
     */
    public record PaymentView(String paymentRequestID, String cryptoAsset, String cryptoNetwork, String address,
            BigDecimal expectedCrypto, BigDecimal receivedCrypto, BigDecimal expectedUSD, BigDecimal receivedUSD,
            String txnHash, int confirmationCount, BigDecimal gasFee, int status, String qrData, String expiration,
            BigDecimal cryptoFXRate, Integer requiredConfirmations, String fromAddress,
            List<TransferView> transfers, String createdAt, String completedAt, String gasFeeUnits,
            String walletName, BigDecimal cryptoRatePerUSD, Boolean fraudPass) {
    }

    /**
     * One transfer to a payment request's address. {@code status}: {@code confirming}, {@code confirmed} or
     * {@code dropped} (left the chain in a reorganisation); {@code late}: arrived after the request or the
     * transaction had ended (recorded and counted as received, never changing a status).
     */
    public record TransferView(String txnHash, String fromAddress, BigDecimal amount, Long blockNumber,
            int confirmations, String status, boolean late, String detectedAt, String confirmedAt) {
    }

    /**
     * A refund leg (docs/transactions.md "Refunds"): the document's fields, plus {@code paymentRequestID} (the
     * payment it pays back), {@code txnHash} (once broadcast), {@code confirmations}, {@code createdAt},
     * {@code completedAt} and {@code failureReason}.
     */
    public record RefundView(String refundID, String cryptoAsset, String cryptoNetwork, BigDecimal cryptoAmount,
            BigDecimal fiatAmount, String fiatCurrency, BigDecimal gasFee, String gasFeePayer, String receiverAddress,
            int status, String reason, String paymentRequestID, String txnHash, int confirmations, String createdAt,
            String completedAt, String failureReason) {
    }
}
