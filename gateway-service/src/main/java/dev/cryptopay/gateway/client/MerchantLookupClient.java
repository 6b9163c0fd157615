package dev.cryptopay.gateway.client;

import dev.cryptopay.events.KeyState;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** merchant-service's internal lookups, called only on a miss of the gateway's Kafka-fed views. */
@RegisterRestClient(configKey = "merchant-lookup")
@Path("/internal")
public interface MerchantLookupClient {

    record MerchantRef(String merchantId, String accountId, String externalMID, int status, long version) {
    }

    @GET
    @Path("keys/{keyHash}")
    KeyState key(@HeaderParam("Authorization") String bearer, @PathParam("keyHash") String keyHash);

    @GET
    @Path("accounts/{accountId}/merchants/{reference}")
    MerchantRef merchant(@HeaderParam("Authorization") String bearer, @PathParam("accountId") String accountId,
            @PathParam("reference") String reference);
}
