package dev.cryptopay.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.math.BigDecimal;

/**
 * Data of {@link EventTypes#BILLING_TRANSACTION_REQUESTED} on {@link Topics#BILLING}: subscription-service asks
 * transaction-service to open a transaction for one billing attempt. transaction-service creates it under
 * {@code transactionId} (so a redelivered request creates nothing twice) exactly as {@code POST /transaction} would
 * for {@code merchantId}, and the usual transaction events follow on {@link Topics#TRANSACTIONS}.
 *
 * @param referenceNumber the subscription payment id, shown as the transaction's referenceNumber
 * @param customerEmail   prefills the customer's e-mail should the KYC gate apply; may be null
 * @param openWithin      ISO-8601 duration: transaction-service opens the transaction only within this long of the
 *                        event's {@code time} and rejects it ({@code request_expired}) later, since subscription-service
 *                        fails an attempt that is not opened in time and would not credit a payment to it; null: no
 *                        limit (requests written before the field existed)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BillingRequest(
        String transactionId,
        String accountId,
        String merchantId,
        BigDecimal amount,
        String currency,
        String asset,
        String network,
        String referenceNumber,
        String descriptor,
        String customerEmail,
        String openWithin) {

    /** A request without a time limit. */
    public BillingRequest(String transactionId, String accountId, String merchantId, BigDecimal amount,
            String currency, String asset, String network, String referenceNumber, String descriptor,
            String customerEmail) {
        this(transactionId, accountId, merchantId, amount, currency, asset, network, referenceNumber, descriptor,
                customerEmail, null);
    }
}
