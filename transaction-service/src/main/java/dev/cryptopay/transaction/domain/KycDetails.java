package dev.cryptopay.transaction.domain;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * What an accepted verification recorded (shown as {@code compliance.kycDetails}). The full customer details
 * are stored ({@code customer}); the Transaction view shows only names, e-mail, country and document metadata.
 *
 * @param status      {@code accepted} (the sandbox accepts every complete submission)
 * @param customerStored a customer record was kept because the submission said {@code storeKYC=true}
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record KycDetails(String status, String documentType, List<Document> documents, CustomerDetails customer,
        boolean customerStored, String submittedAt) {

    public static final String ACCEPTED = "accepted";

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Document(String documentID, String side, String contentType, long sizeBytes) {
    }
}
