package dev.cryptopay.reporting.rest;

import dev.cryptopay.reporting.rebuild.Rebuilder;
import dev.cryptopay.reporting.service.Reconciliation;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Operator endpoints of the reporting store; the gateway admits only a valid operator bearer token here. */
@Path("/operator/reporting")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorResource {

    private final Reconciliation reconciliation;
    private final Rebuilder rebuilder;

    public OperatorResource(Reconciliation reconciliation, Rebuilder rebuilder) {
        this.reconciliation = reconciliation;
        this.rebuilder = rebuilder;
    }

    /** Starts a rebuild of the store from offset zero into a fresh schema (README "Rebuild"); 409 while one runs. */
    @POST
    @Path("rebuild")
    public Response rebuild() {
        return Response.accepted(rebuilder.start()).build();
    }

    /** The latest rebuild and the live store schema. */
    @GET
    @Path("rebuild")
    public Rebuilder.Status rebuildStatus() {
        return rebuilder.status().orElseThrow(() -> ApiException.notFound("Rebuild"));
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
