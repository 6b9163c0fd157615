package dev.cryptopay.transaction.domain;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * What an accepted verification recorded (shown as {@code compliance.kycDetails}). The full customer details
 * are stored ({@code customer}); the Transaction view shows only names, e-mail, country and document metadata.
 *
 * @param status      {@code accepted} (the sandbox accepts every complete submission)
 * @param customerStored a customer record was kept because the submission said {@code storeKYC=true}
 * @param originatorWallet travel rule (FATF R.16, docs/decisions.md §66): the wallet address the customer pays from,
 *        the originator's "account number"; null when the travel rule did not apply. Together with the name and the
 *        physical address every verification collects it is the originator data a travel-rule exchange needs.
 * @param restoredFrom the transaction whose verification a KYC restore reused (docs/decisions.md §64); null for a
 *        verification with documents
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record KycDetails(String status, String documentType, List<Document> documents, CustomerDetails customer,
        boolean customerStored, String submittedAt, String originatorWallet, String restoredFrom) {

    public static final String ACCEPTED = "accepted";

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Document(String documentID, String side, String contentType, long sizeBytes) {
    }
}
