package dev.cryptopay.reporting.rest;

import dev.cryptopay.reporting.service.Reconciliation;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Operator endpoints of the reporting store; the gateway admits only a valid operator bearer token here. */
@Path("/operator/reporting")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorResource {

    private final Reconciliation reconciliation;

    public OperatorResource(Reconciliation reconciliation) {
        this.reconciliation = reconciliation;
    }

    /** The reconciliation listing: transactions and refunds with missing versions, and which. */
    @GET
    @Path("gaps")
    public Reconciliation.Gaps gaps(@QueryParam("accountID") String accountID, @QueryParam("limit") String limit,
            @QueryParam("offset") String offset) {
        Validation v = new Validation();
        java.util.UUID account = null;
        if (accountID != null && !accountID.isBlank()) {
            try {
                account = java.util.UUID.fromString(accountID.strip());
            } catch (IllegalArgumentException e) {
                v.add("accountID", "must be an account UUID");
            }
        }
        ReportRequests.Paging paging = ReportRequests.paging(v, limit, offset);
        v.throwIfInvalid();
        return reconciliation.list(account, paging.limit(), paging.offset());
    }
}
