package dev.cryptopay.transaction.service;

import dev.cryptopay.transaction.domain.CustomerDetails;
import dev.cryptopay.transaction.kyc.DocumentFormat;
import java.util.List;

/**
 * A verification submission whose files passed the size and format checks; fields may still be missing
 * (the service completes them from the creation's prefill, then insists on all of them). {@code originatorWallet}
 * is the travel-rule extension (docs/decisions.md §66), required when the transaction's travel rule applies.
 */
public record Verification(String asset, String network, String documentType, CustomerDetails customer,
        boolean storeKYC, List<Document> documents, String originatorWallet) {

    public record Document(DocumentFormat format, byte[] content) {
    }
}
