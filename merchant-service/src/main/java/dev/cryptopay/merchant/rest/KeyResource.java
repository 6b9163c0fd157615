package dev.cryptopay.merchant.rest;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.merchant.rest.KeyDtos.CreateKeyRequest;
import dev.cryptopay.merchant.rest.KeyDtos.GeneratedKey;
import dev.cryptopay.merchant.rest.KeyDtos.KeyListing;
import dev.cryptopay.merchant.service.KeyService;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.support.web.IdempotencyKeys;
import dev.cryptopay.support.web.PathIds;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.UUID;

/** API and publishable keys of an account (interface document, "API keys"). */
@Path("/accounts/{accountUUID}/keys")
@Produces(MediaType.APPLICATION_JSON)
public class KeyResource {

    private final KeyService keys;
    private final Caller caller;

    public KeyResource(KeyService keys, Caller caller) {
        this.keys = keys;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response create(@HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
            @PathParam("accountUUID") String accountUUID, @QueryParam("merchantUUID") String merchantUUID,
            CreateKeyRequest body) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        CreateKeyRequest request = body == null ? new CreateKeyRequest(null, null, null) : body;
        Validation validation = new Validation()
                .required("keyType", request.keyType())
                .oneOf("keyType", request.keyType(), List.of(KeyState.TYPE_API, KeyState.TYPE_PUBLISHABLE))
                .requiredText("name", request.name())
                .oneOf("role", request.role(), List.of(IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY));
        if (request.role() != null && KeyState.TYPE_PUBLISHABLE.equals(request.keyType())) {
            validation.add("role", "applies to API keys only");
        }
        UUID merchant = null;
        if (merchantUUID != null && !merchantUUID.isBlank()) {
            if (!KeyState.TYPE_PUBLISHABLE.equals(request.keyType())) {
                validation.add("merchantUUID", "scopes publishable keys only");
            }
            try {
                merchant = UUID.fromString(merchantUUID);
            } catch (IllegalArgumentException e) {
                validation.add("merchantUUID", "must be a merchant UUID");
            }
        }
        validation.throwIfInvalid();
        return keys.create(caller, accountId, request.keyType(), request.name().strip(), request.role(), merchant,
                idempotencyKey, created -> new GeneratedKey(created.plainKey(), created.plainPrivateKey())).created();
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public KeyListing list(@PathParam("accountUUID") String accountUUID) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        return KeyMapper.listing(keys.list(accountId));
    }

    @DELETE
    @Path("{keyUUID}")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response revoke(@PathParam("accountUUID") String accountUUID, @PathParam("keyUUID") String keyUUID) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        keys.revoke(accountId, PathIds.uuid(keyUUID, "Key"));
        return Response.noContent().build();
    }
}
