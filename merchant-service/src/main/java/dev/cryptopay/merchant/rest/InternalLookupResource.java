package dev.cryptopay.merchant.rest;

import dev.cryptopay.events.KeyState;
import dev.cryptopay.events.MerchantConfiguration;
import dev.cryptopay.merchant.domain.AccountKey;
import dev.cryptopay.merchant.domain.Merchant;
import dev.cryptopay.merchant.service.MerchantService;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.web.PathIds;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;

/**
 * Synchronous lookups for the gateway, used only when its Kafka-fed view does not know a key or merchant yet
 * (a key used the moment it was created). Not routed by the gateway: only the gateway's own token may call,
 * except the merchant configuration read, which a service calls with the caller's own identity token (see
 * {@link #configuration}).
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_GATEWAY)
public class InternalLookupResource {

    /** The merchant facts the gateway needs to resolve X-MID and sub-merchant keys. */
    public record MerchantRef(String merchantId, String accountId, String externalMID, int status, long version) {
    }

    private final MerchantService merchants;
    private final Caller caller;

    public InternalLookupResource(MerchantService merchants, Caller caller) {
        this.merchants = merchants;
        this.caller = caller;
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

    /**
     * The effective configuration of the merchant the caller acts for, as published on the merchants topic. For a
     * service whose merchant view lags behind (transaction-service, for a merchant created a moment earlier): it
     * forwards the identity token the gateway minted for the request, so the answer is limited to that token's own
     * merchant ({@code mid}); any other merchant, or a token without one, is 404.
     */
    @GET
    @Path("merchants/{merchantId}/configuration")
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY, IdentityClaims.ROLE_PUBLISHABLE })
    public MerchantConfiguration configuration(@PathParam("merchantId") String merchantId) {
        UUID merchant = PathIds.uuid(merchantId, "Merchant");
        UUID account = caller.accountId().orElseThrow(() -> ApiException.notFound("Merchant"));
        if (!caller.merchantId().map(merchant::equals).orElse(false)) {
            throw ApiException.notFound("Merchant");
        }
        return merchants.effectiveConfiguration(account, merchant);
    }
}
