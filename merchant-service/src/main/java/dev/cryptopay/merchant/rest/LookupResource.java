package dev.cryptopay.merchant.rest;

import dev.cryptopay.support.catalogue.Catalogue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** The public lookups; the gateway forwards them without a key (with an anonymous identity token). */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class LookupResource {

    public record AssetView(String code, String type, List<String> networks) {
    }

    @GET
    @Path("assets")
    public List<AssetView> assets() {
        return Catalogue.get().assets().stream()
                .map(a -> new AssetView(a.code(), a.type(), a.networks()))
                .toList();
    }

    @GET
    @Path("config/countries")
    public List<String> countries() {
        return Catalogue.get().countries();
    }
}
