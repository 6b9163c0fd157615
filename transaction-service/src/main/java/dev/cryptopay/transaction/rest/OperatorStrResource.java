package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.service.StrFilings;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.regex.Pattern;

/**
 * {@code POST /operator/transactions/{transactionID}/str} (operator token): records the reference of the
 * suspicious-transaction report filed for a transaction, {@code {"reference": "…"}} (docs/decisions.md §67). 201 when
 * recorded, 200 for the same reference again, 409 {@code str_already_filed} for another one. Answers
 * {@code {transactionId, strFilingReference}}.
 */
@Path("/operator/transactions/{transactionID}/str")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorStrResource {

    /** Letters, digits and - _ . / : — the shape of the references the FIUs' reporting systems hand out. */
    private static final Pattern REFERENCE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/:-]{0,127}");

    public record StrFiling(String reference) {
    }

    public record StrFiled(String transactionId, String strFilingReference) {
    }

    private final StrFilings filings;
    private final Caller caller;

    public OperatorStrResource(StrFilings filings, Caller caller) {
        this.filings = filings;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response file(@PathParam("transactionID") String transactionId, StrFiling body) {
        String reference = body == null || body.reference() == null ? null : body.reference().strip();
        Validation v = new Validation().requiredText("reference", reference);
        if (reference != null && !reference.isEmpty() && !REFERENCE.matcher(reference).matches()) {
            v.add("reference", "must be 1 to 128 letters, digits or . _ / : - (the report's reference, no personal data)");
        }
        v.throwIfInvalid();
        StrFilings.Filed filed = filings.file(transactionId, reference, caller.keyId());
        return Response.status(filed.recorded() ? 201 : 200)
                .entity(new StrFiled(filed.transaction().id.toString(), filed.transaction().strFilingReference))
                .build();
    }
}
