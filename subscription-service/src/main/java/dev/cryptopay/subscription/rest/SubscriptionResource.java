package dev.cryptopay.subscription.rest;

import dev.cryptopay.subscription.domain.Subscription;
import dev.cryptopay.subscription.domain.SubscriptionEvent;
import dev.cryptopay.subscription.domain.SubscriptionStateMachine.Trigger;
import dev.cryptopay.subscription.rest.SubscriptionDtos.EventList;
import dev.cryptopay.subscription.rest.SubscriptionDtos.ReasonRequest;
import dev.cryptopay.subscription.rest.SubscriptionDtos.StatusView;
import dev.cryptopay.subscription.rest.SubscriptionDtos.SubscriptionList;
import dev.cryptopay.subscription.rest.SubscriptionDtos.SubscriptionRequest;
import dev.cryptopay.subscription.rest.SubscriptionDtos.SubscriptionView;
import dev.cryptopay.subscription.service.Ids;
import dev.cryptopay.subscription.service.Listing;
import dev.cryptopay.subscription.service.SubscriptionService;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.web.IdempotencyKeys;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Subscriptions (interface document "Subscriptions"); moves follow SubscriptionStateMachine, refused ones are 409. */
@Path("/subscriptions")
@Produces(MediaType.APPLICATION_JSON)
public class SubscriptionResource {

    private final SubscriptionService subscriptions;
    private final Caller caller;

    public SubscriptionResource(SubscriptionService subscriptions, Caller caller) {
        this.subscriptions = subscriptions;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response create(@HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey, SubscriptionRequest body) {
        SubscriptionRequest request = body == null ? new SubscriptionRequest(null, null, null, null, null, null) : body;
        return subscriptions.create(caller, Accounts.own(caller), request, idempotencyKey).created();
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public SubscriptionList list(@QueryParam("limit") String limit, @QueryParam("page") String page,
            @QueryParam("accountId") String accountId, @QueryParam("merchantId") String merchantId,
            @QueryParam("planId") String planId, @QueryParam("customerEmail") String customerEmail,
            @QueryParam("walletAddress") String walletAddress, @QueryParam("status") String status) {
        PageRequest request = PageRequest.of(limit, page);
        Listing.Page<Subscription> result = subscriptions.list(Accounts.own(caller), new SubscriptionService.Filters(
                accountId, merchantId, planId, customerEmail, walletAddress, status), request);
        return new SubscriptionList(result.items().stream().map(Views::subscription).toList(),
                request.metadata(result.totalCount(), result.items().size()));
    }

    @GET
    @Path("{subscriptionId}")
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public SubscriptionView get(@PathParam("subscriptionId") String id) {
        return Views.subscription(subscriptions.get(Accounts.own(caller), Ids.path(id, "Subscription")));
    }

    @PUT
    @Path("{subscriptionId}/pause")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public StatusView pause(@PathParam("subscriptionId") String id, ReasonRequest body) {
        return move(id, Trigger.PAUSE, body);
    }

    @PUT
    @Path("{subscriptionId}/resume")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public StatusView resume(@PathParam("subscriptionId") String id, ReasonRequest body) {
        return move(id, Trigger.RESUME, body);
    }

    /** Cancel; the body's reason is optional (DELETE with a JSON body, as the interface document has it). */
    @DELETE
    @Path("{subscriptionId}")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public StatusView cancel(@PathParam("subscriptionId") String id, ReasonRequest body) {
        return move(id, Trigger.CANCEL, body);
    }

    @GET
    @Path("{subscriptionId}/events")
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public EventList events(@PathParam("subscriptionId") String id, @QueryParam("limit") String limit,
            @QueryParam("page") String page) {
        PageRequest request = PageRequest.of(limit, page);
        Listing.Page<SubscriptionEvent> result = subscriptions.events(Accounts.own(caller),
                Ids.path(id, "Subscription"), request);
        return new EventList(result.items().stream().map(Views::event).toList(),
                request.metadata(result.totalCount(), result.items().size()));
    }

    private StatusView move(String id, Trigger trigger, ReasonRequest body) {
        Subscription s = subscriptions.move(Accounts.own(caller), Ids.path(id, "Subscription"), trigger,
                body == null ? null : body.reason());
        return new StatusView(s.id.toString(), s.status.name());
    }
}
