package dev.cryptopay.transaction.client;

import dev.cryptopay.events.MerchantConfiguration;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * merchant-service's internal read of one merchant's effective configuration, called only when the merchant view
 * (fed by {@code payments.merchants.v1}) does not hold a merchant the gateway already vouched for — one created a
 * moment earlier. It is called with the caller's own identity token, so it can only read the caller's merchant.
 */
@RegisterRestClient(configKey = "merchant-configuration")
@Path("/internal/merchants")
public interface MerchantConfigurationClient {

    @GET
    @Path("{merchantId}/configuration")
    MerchantConfiguration configuration(@HeaderParam("Authorization") String bearer,
            @PathParam("merchantId") String merchantId);
}
