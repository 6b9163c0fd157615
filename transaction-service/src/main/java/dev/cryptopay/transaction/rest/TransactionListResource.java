package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.transaction.rest.TransactionDtos.TransactionList;
import dev.cryptopay.transaction.service.TransactionListing;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * GET /transactions: API key with X-Account-Id (the gateway checks that it is the key's account). Covers every
 * merchant of the account; {@code limit} and {@code page} are required.
 */
@Path("/transactions")
@Produces(MediaType.APPLICATION_JSON)
public class TransactionListResource {

    private final TransactionListing listing;
    private final Caller caller;

    public TransactionListResource(TransactionListing listing, Caller caller) {
        this.listing = listing;
        this.caller = caller;
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public TransactionList list(@QueryParam("limit") String limit, @QueryParam("page") String page,
            @QueryParam("status") String status, @QueryParam("subMerchantId") String subMerchantId,
            @QueryParam("referenceNumber") String referenceNumber, @QueryParam("startTime") String startTime,
            @QueryParam("endTime") String endTime) {
        TransactionListing.Listing result = listing.list(caller, TransactionRequests.query(limit, page, status,
                subMerchantId, referenceNumber, startTime, endTime));
        return new TransactionList(result.transactions(), result.metadata());
    }
}
