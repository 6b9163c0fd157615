package dev.cryptopay.reporting.messaging;

import dev.cryptopay.reporting.store.StoreSchemas;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness detail of the projection: the live store schema, the lag per topic and the aggregates with gaps. Lag
 * does not take the service out of rotation (its answers are then only older), a store that cannot be read does.
 */
@Readiness
@ApplicationScoped
public class ProjectionReadiness implements HealthCheck {

    private final LagMonitor monitor;
    private final StoreSchemas schemas;

    public ProjectionReadiness(LagMonitor monitor, StoreSchemas schemas) {
        this.monitor = monitor;
        this.schemas = schemas;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named("reporting-projection");
        try {
            builder.withData("store", schemas.active());
        } catch (RuntimeException e) {
            return builder.down().withData("store", "unavailable").build();
        }
        monitor.lag().forEach((topic, lag) -> builder.withData("lag." + topic, lag));
        monitor.gaps().forEach((topic, gaps) -> builder.withData("gaps." + topic, gaps));
        return builder.up().build();
    }
}
