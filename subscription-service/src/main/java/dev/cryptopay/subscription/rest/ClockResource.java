package dev.cryptopay.subscription.rest;

import dev.cryptopay.subscription.billing.BillingJob;
import dev.cryptopay.subscription.config.SubscriptionConfig;
import dev.cryptopay.subscription.domain.BillingClock;
import dev.cryptopay.subscription.rest.SubscriptionDtos.ClockRequest;
import dev.cryptopay.subscription.rest.SubscriptionDtos.ClockView;
import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.security.IdentityClaims;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;

/**
 * Sandbox-only test control of this service's clock, for system tests that bill a month or a dunning schedule of
 * days later without sleeping: {@code PUT /operator/subscriptions/clock} with {@code {"advanceSeconds": n}} moves the
 * clock forward (never back) and runs a billing pass at once; GET shows it. Operator token only. 404 unless the
 * deployment is the sandbox and {@code cryptopay.subscriptions.clock-control} is true (it is false by default).
 */
@Path("/operator/subscriptions/clock")
@Produces(MediaType.APPLICATION_JSON)
public class ClockResource {

    private final BillingClock clock;
    private final BillingJob job;
    private final boolean enabled;

    public ClockResource(BillingClock clock, BillingJob job, SubscriptionConfig config,
            Environment environment) {
        this.clock = clock;
        this.job = job;
        this.enabled = config.clockControl() && environment.isSandbox();
    }

    @GET
    @RolesAllowed(IdentityClaims.ROLE_OPERATOR)
    public ClockView get() {
        requireEnabled();
        return view();
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(IdentityClaims.ROLE_OPERATOR)
    public ClockView advance(ClockRequest body) {
        requireEnabled();
        if (body == null || body.advanceSeconds() == null || body.advanceSeconds() < 0) {
            throw ApiException.validation("advanceSeconds", "is required and must be 0 or more");
        }
        clock.advance(Duration.ofSeconds(body.advanceSeconds()));
        job.runOnce();
        return view();
    }

    private ClockView view() {
        return new ClockView(Views.time(clock.now()), clock.offset().toSeconds());
    }

    private void requireEnabled() {
        if (!enabled) {
            throw ApiException.notFound("Resource");
        }
    }
}
