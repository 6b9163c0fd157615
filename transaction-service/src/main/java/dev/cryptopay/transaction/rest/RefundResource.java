package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.support.web.IdempotencyKeys;
import dev.cryptopay.transaction.quote.Money;
import dev.cryptopay.transaction.service.RefundService;
import dev.cryptopay.transaction.service.RefundService.RefundCommand;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

/**
 * {@code POST /account/{accountID}/transaction/{transactionID}/refund} (API key + X-MID; note the singular
 * {@code account}): body {@code amount} (fiat, in the transaction's currency), optional {@code reason} and
 * {@code gasFeePayer} ({@code merchant} or {@code customer}, default {@code customer}); answers 201 with one
 * {@code {refundID, assetAmount}} per leg. The rules are {@link RefundService}'s.
 */
@Path("/account/{accountID}/transaction/{transactionID}/refund")
@Produces(MediaType.APPLICATION_JSON)
public class RefundResource {

    public record RefundRequest(BigDecimal amount, String reason, String gasFeePayer) {
    }

    private final RefundService refunds;
    private final Caller caller;

    public RefundResource(RefundService refunds, Caller caller) {
        this.refunds = refunds;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response refund(@PathParam("accountID") String accountId, @PathParam("transactionID") String transactionId,
            @HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey, RefundRequest body) {
        UUID account;
        try {
            account = UUID.fromString(accountId);
        } catch (IllegalArgumentException e) {
            throw ApiException.forbidden("The key does not belong to this account.");
        }
        if (body == null) {
            throw ApiException.badRequest("A JSON body is required.");
        }
        Validation v = new Validation()
                .required("amount", body.amount())
                .text("reason", body.reason(), Validation.MAX_STRING)
                .oneOf("gasFeePayer", TransactionRequests.blankToNull(body.gasFeePayer()),
                        List.of("merchant", "customer"));
        Money.checkAmount(v, "amount", body.amount());
        v.throwIfInvalid();
        return refunds.refund(caller, account, transactionId, new RefundCommand(
                body.amount(), TransactionRequests.blankToNull(body.reason()),
                TransactionRequests.blankToNull(body.gasFeePayer())), idempotencyKey).created();
    }
}
