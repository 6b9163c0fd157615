package dev.cryptopay.merchant.rest;

import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.service.AccountConfigService;
import dev.cryptopay.merchant.service.AccountSettingsPatch;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.web.PathIds;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

/**
 * {@code GET/PUT /accounts/{accountUUID}/config}: PUT is partial, only the fields present change. Both answer the
 * full configuration as it applies ({@link AccountSettings}; every field present, null when unset).
 */
@Path("/accounts/{accountUUID}/config")
@Produces(MediaType.APPLICATION_JSON)
public class AccountConfigResource {

    private final AccountConfigService accounts;
    private final Caller caller;

    public AccountConfigResource(AccountConfigService accounts, Caller caller) {
        this.accounts = accounts;
        this.caller = caller;
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public AccountSettings get(@PathParam("accountUUID") String accountUUID) {
        return accounts.effective(account(accountUUID));
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public AccountSettings update(@PathParam("accountUUID") String accountUUID,
            @RequestBody(content = @Content(schema = @Schema(implementation = AccountSettings.class)))
            AccountSettingsPatch body) {
        return accounts.updateByAccount(account(accountUUID), body);
    }

    private UUID account(String accountUUID) {
        return caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
    }
}
