package dev.cryptopay.webhook.rest;

import dev.cryptopay.support.paging.PageRequest;
import dev.cryptopay.support.security.Caller;
import dev.cryptopay.support.security.IdentityClaims;
import dev.cryptopay.support.web.IdempotencyKeys;
import dev.cryptopay.support.web.PathIds;
import dev.cryptopay.webhook.delivery.DeliveryDispatcher;
import dev.cryptopay.webhook.rest.WebhookDtos.CreateWebhookRequest;
import dev.cryptopay.webhook.rest.WebhookDtos.DeliveryListing;
import dev.cryptopay.webhook.rest.WebhookDtos.RedeliveryAccepted;
import dev.cryptopay.webhook.rest.WebhookDtos.RotatedSecret;
import dev.cryptopay.webhook.rest.WebhookDtos.UpdateWebhookRequest;
import dev.cryptopay.webhook.rest.WebhookDtos.WebhookListing;
import dev.cryptopay.webhook.service.DeliveryLog;
import dev.cryptopay.webhook.service.WebhookRequests.NewWebhook;
import dev.cryptopay.webhook.service.WebhookRequests.WebhookChanges;
import dev.cryptopay.webhook.service.WebhookService;
import dev.cryptopay.webhook.service.WebhookValidation;
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
import java.util.UUID;

/**
 * Webhook listeners of an account (interface document "Webhooks"), their delivery log (docs/decisions.md §7) and
 * secret rotation (§42). Writes need the {@code admin} role, reads {@code admin} or {@code read_only}; another
 * account's path is 403, another account's webhook 404. Only keys that may write webhooks see signing secrets in
 * full.
 */
@Path("/accounts/{accountUUID}/webhooks")
@Produces(MediaType.APPLICATION_JSON)
public class WebhookResource {

    private final WebhookService webhooks;
    private final WebhookValidation validation;
    private final DeliveryLog deliveries;
    private final DeliveryDispatcher dispatcher;
    private final Caller caller;

    public WebhookResource(WebhookService webhooks, WebhookValidation validation, DeliveryLog deliveries,
            DeliveryDispatcher dispatcher, Caller caller) {
        this.webhooks = webhooks;
        this.validation = validation;
        this.deliveries = deliveries;
        this.dispatcher = dispatcher;
        this.caller = caller;
    }

    /**
     * 201 with the new webhook. {@code Idempotency-Key} is honoured by the gateway, as for every POST, and here too,
     * for the retries whose answer the gateway lost (docs/decisions.md §122).
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response create(@HeaderParam(IdempotencyKeys.HEADER) String idempotencyKey,
            @PathParam("accountUUID") String accountUUID, CreateWebhookRequest body) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        NewWebhook request = WebhookMapper.request(body);
        validation.checkCreate(request);
        return webhooks.create(caller, accountId, request, idempotencyKey, WebhookMapper::created).created();
    }

    @GET
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public WebhookListing list(@PathParam("accountUUID") String accountUUID) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        boolean mayWrite = caller.hasRole(IdentityClaims.ROLE_ADMIN);
        return new WebhookListing(webhooks.list(accountId, mayWrite).stream().map(WebhookMapper::view).toList());
    }

    @PUT
    @Path("{webhookUUID}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response update(@PathParam("accountUUID") String accountUUID,
            @PathParam("webhookUUID") String webhookUUID, UpdateWebhookRequest body) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        UUID webhookId = PathIds.uuid(webhookUUID, "Webhook");
        WebhookChanges request = WebhookMapper.request(body);
        validation.checkUpdate(request);
        webhooks.update(accountId, webhookId, request);
        return Response.noContent().build();
    }

    /**
     * 200 with a new signing secret in full; the previous one keeps signing beside it until
     * {@code previousKeyExpiresAt} (docs/decisions.md §42). Write keys only.
     */
    @POST
    @Path("{webhookUUID}/rotate-secret")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public RotatedSecret rotateSecret(@PathParam("accountUUID") String accountUUID,
            @PathParam("webhookUUID") String webhookUUID) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        return WebhookMapper.rotated(webhooks.rotate(accountId, PathIds.uuid(webhookUUID, "Webhook")));
    }

    @DELETE
    @Path("{webhookUUID}")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response delete(@PathParam("accountUUID") String accountUUID,
            @PathParam("webhookUUID") String webhookUUID) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        webhooks.delete(accountId, PathIds.uuid(webhookUUID, "Webhook"));
        return Response.noContent().build();
    }

    @GET
    @Path("{webhookUUID}/deliveries")
    @RolesAllowed({ IdentityClaims.ROLE_ADMIN, IdentityClaims.ROLE_READ_ONLY })
    public DeliveryListing deliveries(@PathParam("accountUUID") String accountUUID,
            @PathParam("webhookUUID") String webhookUUID, @QueryParam("limit") String limit,
            @QueryParam("page") String page) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        UUID webhookId = PathIds.uuid(webhookUUID, "Webhook");
        PageRequest paging = PageRequest.of(limit, page);
        return WebhookMapper.deliveries(deliveries.list(accountId, webhookId, paging), paging);
    }

    /** Answers 202 Accepted: the attempt is queued at once and shows up in the delivery log when made. */
    @POST
    @Path("{webhookUUID}/deliveries/{deliveryId}/redeliver")
    @RolesAllowed(IdentityClaims.ROLE_ADMIN)
    public Response redeliver(@PathParam("accountUUID") String accountUUID,
            @PathParam("webhookUUID") String webhookUUID, @PathParam("deliveryId") String deliveryId) {
        UUID accountId = caller.requireAccount(PathIds.uuid(accountUUID, "Account"));
        RedeliveryAccepted accepted = WebhookMapper.redelivery(deliveries.redeliver(accountId,
                PathIds.uuid(webhookUUID, "Webhook"), PathIds.uuid(deliveryId, "Delivery")));
        dispatcher.wake();
        return Response.accepted(accepted).build();
    }
}
