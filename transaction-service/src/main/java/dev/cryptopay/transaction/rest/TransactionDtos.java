package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.paging.PageMetadata;
import dev.cryptopay.transaction.view.TransactionView;
import java.math.BigDecimal;
import java.util.List;

/** Request and list bodies of the transaction endpoints (interface document, "Transactions"). */
public final class TransactionDtos {

    private TransactionDtos() {
    }

    /** POST /transaction. */
    public record CreateTransactionRequest(String descriptor, String referenceNumber, BigDecimal amount,
            String amountCurrency, String asset, String network, BigDecimal fxRate, String quoteID,
            Prefill optional) {
    }

    /** The {@code optional} object: customer details to prefill when KYC is required. */
    public record Prefill(String firstName, String lastName, String email, String street1, String street2,
            String city, String region, String postalCode, String country) {
    }

    /** POST /transaction/{id}/payment. */
    public record PaymentRequestBody(String asset, String network, String wallet) {
    }

    /** PATCH /transaction/{id}/cancel. */
    public record CancelRequest(String reason, Boolean forfeit) {
    }

    /** GET /transactions. */
    public record TransactionList(List<TransactionView> transactions, PageMetadata metadata) {
    }
}
