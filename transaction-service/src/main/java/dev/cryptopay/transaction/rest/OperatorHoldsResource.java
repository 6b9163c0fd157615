package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.rest.TransactionDtos.TransactionList;
import dev.cryptopay.transaction.service.TransactionListing;
import dev.cryptopay.transaction.service.TransactionService;
import dev.cryptopay.transaction.view.TransactionView;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;

/**
 * Compliance holds (operator token; docs/decisions.md §59, docs/transactions.md "Compliance"):
 * {@code GET /operator/transactions/held?limit&page&accountID} lists the transactions held for review (oldest change
 * first), {@code POST /operator/transactions/{transactionID}/release} releases one (→ 1 when its funds cover the
 * amount; {@code transaction.released}, then {@code transaction.success}), {@code POST …/refund} refunds it (→ -2,
 * refund legs for everything received). Both take an optional {@code {"reason": "…"}} and answer the Transaction.
 */
@Path("/operator/transactions")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorHoldsResource {

    public record DecisionIn(String reason) {
    }

    private final TransactionService transactions;
    private final Caller caller;

    public OperatorHoldsResource(TransactionService transactions, Caller caller) {
        this.transactions = transactions;
        this.caller = caller;
    }

    @GET
    @Path("/held")
    public TransactionList held(@QueryParam("limit") String limit, @QueryParam("page") String page,
            @QueryParam("accountID") String accountId) {
        UUID account = null;
        if (accountId != null && !accountId.isBlank()) {
            try {
                account = UUID.fromString(accountId.strip());
            } catch (IllegalArgumentException e) {
                new Validation().add("accountID", "must be a UUID").throwIfInvalid();
            }
        }
        TransactionListing.Listing result = transactions.held(PageRequest.of(limit, page), account);
        return new TransactionList(result.transactions(), result.metadata());
    }

    @POST
    @Path("/{transactionID}/release")
    @Consumes(MediaType.APPLICATION_JSON)
    public TransactionView release(@PathParam("transactionID") String transactionId, DecisionIn body) {
        return transactions.release(transactionId, caller.keyId(), reason(body));
    }

    @POST
    @Path("/{transactionID}/refund")
    @Consumes(MediaType.APPLICATION_JSON)
    public TransactionView refund(@PathParam("transactionID") String transactionId, DecisionIn body) {
        return transactions.refundHeld(transactionId, caller.keyId(), reason(body));
    }

    private static String reason(DecisionIn body) {
        String reason = body == null ? null : body.reason();
        new Validation().text("reason", reason, Validation.MAX_STRING).throwIfInvalid();
        return reason;
    }
}
