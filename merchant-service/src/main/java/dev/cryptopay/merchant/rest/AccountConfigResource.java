package dev.cryptopay.merchant.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.merchant.service.AccountConfigService;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;

/** {@code GET/PUT /accounts/{accountUUID}/config}: PUT is partial, only the fields present change. */
@Path("/accounts/{accountUUID}/config")
@Produces(MediaType.APPLICATION_JSON)
public class AccountConfigResource {

    private final AccountConfigService accounts;
    private final Caller caller;
    private final ObjectMapper mapper;

    public AccountConfigResource(AccountConfigService accounts, Caller caller, ObjectMapper mapper) {
        this.accounts = accounts;
        this.caller = caller;
        this.mapper = mapper;
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public ObjectNode get(@PathParam("accountUUID") String accountUUID) {
        return AccountConfigFields.view(accounts.effective(account(accountUUID)), mapper);
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public ObjectNode update(@PathParam("accountUUID") String accountUUID, JsonNode body) {
        UUID accountId = account(accountUUID);
        AccountConfigFields.mergeWritable(body, accounts.get(accountId), mapper);
        return AccountConfigFields.view(
                accounts.update(accountId, current -> AccountConfigFields.mergeWritable(body, current, mapper)), mapper);
    }

    private UUID account(String accountUUID) {
        return caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
    }
}
