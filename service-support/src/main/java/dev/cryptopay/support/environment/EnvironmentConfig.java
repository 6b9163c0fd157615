package dev.cryptopay.support.environment;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one place that reads {@code cryptopay.environment} ({@code CRYPTOPAY_ENVIRONMENT}) and makes it the injectable
 * {@link Environment}: {@code @Inject Environment environment}. The setting has no default for a packaged
 * (production-profile) service: the deployment must name it, and the local scripts, the dev profile and the tests name
 * {@code sandbox} explicitly. It is read at start-up, so a missing or unknown value stops the service with
 * {@link Environment#parse}'s message before it serves anything.
 *
 * <p>A plain property rather than a {@code @ConfigMapping}: a mapping rooted at {@code cryptopay} would claim every
 * other {@code cryptopay.*} key of the suite.
 */
// created eagerly, so the check runs at start-up rather than at the first request that needs it, and before the
// Kafka channels connect (StartupChecks)
@Startup(StartupChecks.PRIORITY)
@Singleton
public class EnvironmentConfig {

    private final Environment environment;

    public EnvironmentConfig(@ConfigProperty(name = "cryptopay.environment") Optional<String> value) {
        this.environment = Environment.parse(value.orElse(null));
    }

    @Produces
    @Singleton
    Environment environment() {
        return environment;
    }
}
