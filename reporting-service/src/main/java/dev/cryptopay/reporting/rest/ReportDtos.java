package dev.cryptopay.reporting.rest;

import java.math.BigDecimal;
import java.util.List;

/** The reporting answers (interface document, "Reporting"; settlements are an extension). */
public final class ReportDtos {

    private ReportDtos() {
    }

    /** A payment summary of a transaction report row. */
    public record PaymentSummary(String paymentRequestID, String cryptoAsset, String cryptoNetwork, String address,
            String fromAddress, BigDecimal expectedUSD, BigDecimal receivedCrypto, BigDecimal gasFee,
            String gasFeeUnits, String txnHash, Integer status, Boolean fraudPass, String createdAt) {
    }

    /** A payment of the single-transaction form: the summary plus the extended fields. */
    public record PaymentDetail(String paymentRequestID, String cryptoAsset, String cryptoNetwork, String address,
            String fromAddress, BigDecimal expectedUSD, BigDecimal receivedCrypto, BigDecimal gasFee,
            String gasFeeUnits, String txnHash, Integer status, Boolean fraudPass, String createdAt,
            BigDecimal expectedCrypto, BigDecimal receivedUSD, Integer confirmationCount,
            BigDecimal cryptoRatePerUSD, String walletName, String completedAt, String expiration,
            String sourceCreatedAt, String sourceUpdatedAt) {
    }

    /** Transaction report row. */
    public record TransactionRow(String transactionID, String accountID, String merchantID, String externalMID,
            String descriptor, String referenceNumber, int status, int paymentStatus, String currency,
            BigDecimal totalLocal, BigDecimal totalUSD, BigDecimal receivedUSD, BigDecimal customerFeeUSD,
            BigDecimal fxRateToUSD, List<PaymentSummary> payments, String cancellationReason, String expiration,
            String sourceCreatedAt, String sourceUpdatedAt) {
    }

    /**
     * The transaction's compliance as its latest event carried it (docs/decisions.md §67): {@code heldForReview},
     * {@code resolutionLogs} (every compliance decision, oldest first) and the filed report's
     * {@code strFilingReference}; null where the events carried none. Reporting answers API keys only.
     */
    public record Compliance(boolean kycTriggered, boolean travelRuleTriggered, Boolean heldForReview,
            com.fasterxml.jackson.databind.JsonNode resolutionLogs, String strFilingReference) {
    }

    /** A refund leg of the transaction (from payments.refunds.v1). */
    public record Refund(String refundID, String paymentRequestID, String cryptoAsset, String cryptoNetwork,
            BigDecimal cryptoAmount, BigDecimal fiatAmount, String fiatCurrency, BigDecimal amountUSD,
            BigDecimal gasFee, String gasFeePayer, String receiverAddress, int status, String reason, String txnHash,
            String createdAt, String completedAt) {
    }

    /** The fees the transaction's success terms give (zero until it succeeds); an extension. */
    public record Fees(BigDecimal mdrUSD, BigDecimal platformUSD, BigDecimal deductedUSD, String platformCollection) {
    }

    /** The single-transaction form: the row plus compliance, extended payments, refunds and fees. */
    public record TransactionDetail(String transactionID, String accountID, String merchantID, String externalMID,
            String descriptor, String referenceNumber, int status, int paymentStatus, String currency,
            BigDecimal totalLocal, BigDecimal totalUSD, BigDecimal receivedUSD, BigDecimal customerFeeUSD,
            BigDecimal fxRateToUSD, Compliance compliance, List<PaymentDetail> payments, List<Refund> refunds,
            Fees fees, String cancellationReason, String expiration, String sourceCreatedAt, String sourceUpdatedAt) {
    }

    public record TransactionList(long total, List<TransactionRow> transactions) {
    }

    public record Summary(BigDecimal totalVolumeUSD, BigDecimal totalFeesUSD, BigDecimal pendingPayoutsUSD) {
    }

    /** One settlement period with activity. {@code status}: {@code open} (now inside it) or {@code closed}. */
    public record Settlement(String periodStart, String periodEnd, String status, long transactionCount,
            BigDecimal volumeUSD, BigDecimal feesUSD, BigDecimal feesDeductedUSD, BigDecimal feesBilledSeparatelyUSD,
            long refundCount, BigDecimal refundsUSD, BigDecimal payoutUSD) {
    }

    public record SettlementList(String settlementFrequency, String settlementAnchor, long total,
            List<Settlement> settlements) {
    }
}
