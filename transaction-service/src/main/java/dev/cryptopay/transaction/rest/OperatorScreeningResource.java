package dev.cryptopay.transaction.rest;

import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.validation.Validation;
import dev.cryptopay.transaction.screening.ScreeningLists;
import dev.cryptopay.transaction.screening.ScreeningLists.EntryIn;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * The operator's screening lists and the provider's service switch (operator token; docs/decisions.md §60, §61;
 * docs/transactions.md "Compliance"):
 * <ul>
 * <li>{@code PUT /operator/screening/lists/{list}} {@code {"entries":[{network, address, category, exchangeName,
 * source}]}}: replaces the list; {@code POST …/entries}: adds to it. Answer {@code {"list", "entryCount"}}.</li>
 * <li>{@code GET /operator/screening/entries?limit&page&list&address}: the entries, paginated.</li>
 * <li>{@code GET|PUT /operator/screening/status} {@code {"available": false, "reason": "…"}}: takes the provider out
 * of service (every screening answers vendor-status) or back.</li>
 * </ul>
 */
@Path("/operator/screening")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(IdentityClaims.ROLE_OPERATOR)
public class OperatorScreeningResource {

    public record EntriesIn(List<EntryIn> entries) {
    }

    public record ListOut(String list, long entryCount) {
    }

    public record StatusIn(Boolean available, String reason) {
    }

    private final ScreeningLists lists;

    public OperatorScreeningResource(ScreeningLists lists) {
        this.lists = lists;
    }

    @PUT
    @Path("/lists/{list}")
    @Consumes(MediaType.APPLICATION_JSON)
    public ListOut replace(@PathParam("list") String list, EntriesIn body) {
        return new ListOut(list, lists.replace(list, body == null ? null : body.entries()));
    }

    @POST
    @Path("/lists/{list}/entries")
    @Consumes(MediaType.APPLICATION_JSON)
    public ListOut add(@PathParam("list") String list, EntriesIn body) {
        return new ListOut(list, lists.add(list, body == null ? null : body.entries()));
    }

    @GET
    @Path("/entries")
    public ScreeningLists.Listing entries(@QueryParam("limit") String limit, @QueryParam("page") String page,
            @QueryParam("list") String list, @QueryParam("address") String address) {
        new Validation().text("list", list, Validation.MAX_STRING).text("address", address, Validation.MAX_STRING)
                .throwIfInvalid();
        return lists.list(PageRequest.of(limit, page), list, address);
    }

    @GET
    @Path("/status")
    public ScreeningLists.Status status() {
        return lists.status();
    }

    @PUT
    @Path("/status")
    @Consumes(MediaType.APPLICATION_JSON)
    public ScreeningLists.Status setStatus(StatusIn body) {
        if (body == null || body.available() == null) {
            throw ApiException.validation("available", "is required (true or false)");
        }
        new Validation().text("reason", body.reason(), Validation.MAX_STRING).throwIfInvalid();
        return lists.setStatus(body.available(), body.reason());
    }
}
