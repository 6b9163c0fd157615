package dev.cryptopay.subscription.rest;

import dev.cryptopay.subscription.billing.PaymentService;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PaymentCreateRequest;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PaymentList;
import dev.cryptopay.subscription.rest.SubscriptionDtos.PaymentView;
import dev.cryptopay.subscription.service.Ids;
import dev.cryptopay.subscription.service.Listing;
import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.web.IdempotencyKeys;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
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

/** Subscription payments (interface document "Subscription payments"). */
@Path("/subscriptionpayments")
@Produces(MediaType.APPLICATION_JSON)
public class PaymentResource {

    private final PaymentService payments;
    private final Caller caller;

    public PaymentResource(PaymentService payments, Caller caller) {
        this.payments = payments;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response create(@HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey, PaymentCreateRequest body) {
        return payments.create(caller, Accounts.own(caller), body == null ? null : body.subscriptionId(),
                idempotencyKey).created();
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public PaymentList list(@QueryParam("limit") String limit, @QueryParam("page") String page,
            @QueryParam("accountId") String accountId, @QueryParam("merchantId") String merchantId,
            @QueryParam("planId") String planId, @QueryParam("subscriptionId") String subscriptionId,
            @QueryParam("status") String status, @QueryParam("from") String from, @QueryParam("to") String to) {
        PageRequest request = PageRequest.of(limit, page);
        Listing.Page<PaymentView> result = payments.list(Accounts.own(caller),
                new PaymentService.Filters(accountId, merchantId, planId, subscriptionId, status, from, to), request);
        return new PaymentList(result.items(), request.metadata(result.totalCount(), result.items().size()));
    }

    @GET
    @Path("{paymentId}")
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public PaymentView get(@PathParam("paymentId") String id) {
        return payments.get(Accounts.own(caller), Ids.path(id, "Subscription payment"));
    }

    /** The path parameter is a subscription id (interface document). */
    @PUT
    @Path("{subscriptionId}/retry")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response retry(@PathParam("subscriptionId") String subscriptionId) {
        payments.retry(Accounts.own(caller), Ids.path(subscriptionId, "Subscription"));
        return Response.noContent().build();
    }
}
