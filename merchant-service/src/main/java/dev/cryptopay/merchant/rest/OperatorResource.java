package dev.cryptopay.merchant.rest;

import dev.cryptopay.merchant.rest.KeyDtos.CreateAccountRequest;
import dev.cryptopay.merchant.rest.KeyDtos.CreatedAccount;
import dev.cryptopay.merchant.rest.KeyDtos.GeneratedKey;
import dev.cryptopay.merchant.service.AccountService;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Operator-only endpoints (decisions §4); the gateway admits only a valid operator bearer token here. */
@Path("/operator")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorResource {

    private final AccountService accounts;

    public OperatorResource(AccountService accounts) {
        this.accounts = accounts;
    }

    @POST
    @Path("accounts")
    public Response createAccount(CreateAccountRequest body) {
        CreateAccountRequest request = body == null ? new CreateAccountRequest(null, null) : body;
        new Validation()
                .requiredText("name", request.name())
                .requiredText("email", request.email())
                .email("email", request.email())
                .throwIfInvalid();
        AccountService.NewAccount created = accounts.create(request.name(), request.email());
        return Response.status(Response.Status.CREATED)
                .entity(new CreatedAccount(created.account().id.toString(),
                        new GeneratedKey(created.apiKey().plainKey(), created.apiKey().plainPrivateKey())))
                .build();
    }
}
