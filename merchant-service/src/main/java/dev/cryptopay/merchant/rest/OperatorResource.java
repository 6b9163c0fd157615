package dev.cryptopay.merchant.rest;

import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.domain.Settings.AccountSettings;
import dev.cryptopay.merchant.rest.KeyDtos.CreateAccountRequest;
import dev.cryptopay.merchant.rest.KeyDtos.CreatedAccount;
import dev.cryptopay.merchant.rest.KeyDtos.GeneratedKey;
import dev.cryptopay.merchant.service.AccountConfigService;
import dev.cryptopay.merchant.service.AccountService;
import dev.cryptopay.merchant.service.AccountSettingsPatch;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.support.web.IdempotencyKeys;
import dev.cryptopay.support.web.PathIds;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

/** Operator-only endpoints (docs/decisions.md §4); the gateway admits only a valid operator bearer token here. */
@Path("/operator/accounts")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorResource {

    /** Body of the operator's merchant update; both fields optional. */
    public record MerchantOperation(Integer status, Boolean fxRateAllowed) {
    }

    /** Answer of the operator's merchant update. */
    public record MerchantOperated(String UUID, String accountID, int status, boolean fxRateAllowed) {
    }

    private final AccountService accounts;
    private final AccountConfigService configs;
    private final Caller caller;

    public OperatorResource(AccountService accounts, AccountConfigService configs, Caller caller) {
        this.accounts = accounts;
        this.configs = configs;
        this.caller = caller;
    }

    @POST
    public Response createAccount(@HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
            CreateAccountRequest body) {
        CreateAccountRequest request = body == null ? new CreateAccountRequest(null, null) : body;
        new Validation()
                .requiredText("name", request.name())
                .requiredText("email", request.email())
                .email("email", request.email())
                .throwIfInvalid();
        return accounts.create(caller, request.name(), request.email(), idempotencyKey,
                created -> new CreatedAccount(created.account().id.toString(),
                        new GeneratedKey(created.apiKey().plainKey(), created.apiKey().plainPrivateKey())))
                .created();
    }

    /** Sets the account's read-only fields (partial); answers the full account configuration. */
    @PUT
    @Path("{accountUUID}")
    public AccountSettings updateAccount(@PathParam("accountUUID") String accountUUID,
            @RequestBody(content = @Content(schema = @Schema(implementation = AccountSettings.class)))
            AccountSettingsPatch body) {
        return configs.updateByOperator(PathIds.uuid(accountUUID, "Account"), body);
    }

    @PATCH
    @Path("{accountUUID}")
    public AccountSettings patchAccount(@PathParam("accountUUID") String accountUUID,
            @RequestBody(content = @Content(schema = @Schema(implementation = AccountSettings.class)))
            AccountSettingsPatch body) {
        return updateAccount(accountUUID, body);
    }

    /** Enables, disables or reviews a merchant and grants or withdraws the fxRate permission. */
    @PUT
    @Path("{accountUUID}/merchants/{merchantUUID}")
    public MerchantOperated updateMerchant(@PathParam("accountUUID") String accountUUID,
            @PathParam("merchantUUID") String merchantUUID, MerchantOperation body) {
        MerchantOperation op = body == null ? new MerchantOperation(null, null) : body;
        Validation v = new Validation();
        if (op.status() != null && !List.of(0, 1, -1).contains(op.status())) {
            v.add("status", "must be 1 (enabled), 0 (under review) or -1 (disabled)");
        }
        if (op.status() == null && op.fxRateAllowed() == null) {
            v.add("status", "status or fxRateAllowed is required");
        }
        v.throwIfInvalid();
        Merchant merchant = configs.operate(PathIds.uuid(accountUUID, "Account"),
                PathIds.uuid(merchantUUID, "Merchant"), op.status(), op.fxRateAllowed());
        return new MerchantOperated(merchant.id.toString(), merchant.accountId.toString(), merchant.status,
                merchant.fxRateAllowed);
    }

    @PATCH
    @Path("{accountUUID}/merchants/{merchantUUID}")
    public MerchantOperated patchMerchant(@PathParam("accountUUID") String accountUUID,
            @PathParam("merchantUUID") String merchantUUID, MerchantOperation body) {
        return updateMerchant(accountUUID, merchantUUID, body);
    }
}
