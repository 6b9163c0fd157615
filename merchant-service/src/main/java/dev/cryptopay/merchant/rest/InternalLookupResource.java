package dev.cryptopay.merchant.rest;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.merchant.domain.AccountKey;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.service.MerchantService;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.IdentityClaims;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Synchronous lookups for the gateway, used only when its Kafka-fed view does not know a key or merchant yet
 * (a key used the moment it was created). Not routed by the gateway: only the gateway's own token may call.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_GATEWAY)
public class InternalLookupResource {

    /** The merchant facts the gateway needs to resolve X-MID and sub-merchant keys. */
    public record MerchantRef(String merchantId, String accountId, String externalMID, int status, long version) {
    }

    private final MerchantService merchants;

    public InternalLookupResource(MerchantService merchants) {
        this.merchants = merchants;
    }

    @GET
    @Path("keys/{keyHash}")
    public KeyState key(@PathParam("keyHash") String keyHash) {
        return QuarkusTransaction.requiringNew().call(() -> AccountKey.findByHash(keyHash)
                .map(k -> new KeyState(k.id.toString(), k.accountId.toString(), k.keyType, k.keyHash, k.role,
                        k.merchantUUID == null ? null : k.merchantUUID.toString(), k.status, k.version,
                        k.updatedAt.toString()))
                .orElseThrow(() -> ApiException.notFound("Key")));
    }

    @GET
    @Path("accounts/{accountId}/merchants/{reference}")
    public MerchantRef merchant(@PathParam("accountId") String accountId, @PathParam("reference") String reference) {
        Merchant merchant = merchants.resolve(PathIds.uuid(accountId, "Account"), reference)
                .orElseThrow(() -> ApiException.notFound("Merchant"));
        return new MerchantRef(merchant.id.toString(), merchant.accountId.toString(), merchant.externalMID,
                merchant.archivedAt != null ? Merchant.DISABLED : merchant.status,
                merchant.version);
    }
}
