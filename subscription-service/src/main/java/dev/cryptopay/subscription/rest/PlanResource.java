package dev.cryptopay.subscription.rest;

import dev.cryptopay.subscription.domain.Plan;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PlanList;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PlanRequest;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PlanView;
import dev.cryptopay.subscription.service.Ids;
import dev.cryptopay.subscription.service.Listing;
import dev.cryptopay.subscription.service.PlanService;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.web.IdempotencyKeys;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Subscription plans (interface document "Subscription plans"); writes need {@code admin}, reads also {@code read_only}. */
@Path("/subscriptionplans")
@Produces(MediaType.APPLICATION_JSON)
public class PlanResource {

    private final PlanService plans;
    private final Caller caller;

    public PlanResource(PlanService plans, Caller caller) {
        this.plans = plans;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response create(@HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey, PlanRequest body) {
        PlanRequest request = body == null ? new PlanRequest(null, null, null, null, null, null, null) : body;
        return plans.create(caller, Accounts.own(caller), request, idempotencyKey, Views::plan).created();
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public PlanList list(@QueryParam("limit") String limit, @QueryParam("page") String page,
            @QueryParam("accountId") String accountId, @QueryParam("merchantId") String merchantId) {
        PageRequest request = PageRequest.of(limit, page);
        Listing.Page<Plan> result = plans.list(Accounts.own(caller), accountId, merchantId, request);
        return new PlanList(result.items().stream().map(Views::plan).toList(),
                request.metadata(result.totalCount(), result.items().size()));
    }

    @GET
    @Path("{planId}")
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public PlanView get(@PathParam("planId") String planId) {
        return Views.plan(plans.get(Accounts.own(caller), Ids.path(planId, "Plan")));
    }
}
