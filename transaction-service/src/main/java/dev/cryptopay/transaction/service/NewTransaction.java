package dev.cryptopay.transaction.service;

import dev.cryptopay.transaction.domain.CustomerDetails;
import java.math.BigDecimal;

/** A syntactically valid creation request (rest.TransactionRequests checked it); merchant rules come later. */
public record NewTransaction(String descriptor, String referenceNumber, BigDecimal amount, String currency,
        String asset, String network, BigDecimal fxRate, String quoteID, CustomerDetails prefill) {
}
