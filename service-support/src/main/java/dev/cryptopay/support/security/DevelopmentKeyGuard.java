package dev.cryptopay.support.security;

import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.support.environment.StartupChecks;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Checks, at start-up of every service, the keys SmallRye JWT is given against the committed development keys
 * ({@link DevelopmentKeys}; docs/decisions.md §29): the public key that verifies the gateway's internal tokens and, in
 * the gateway, the private key that signs them. In production a match stops the service before it serves anything.
 */
@Startup(StartupChecks.PRIORITY) // before the Kafka channels connect
@Singleton
public class DevelopmentKeyGuard {

    public DevelopmentKeyGuard(Environment environment,
            @ConfigProperty(name = "mp.jwt.verify.publickey.location") Optional<String> verifyLocation,
            @ConfigProperty(name = "mp.jwt.verify.publickey") Optional<String> verifyInline,
            @ConfigProperty(name = "smallrye.jwt.sign.key.location") Optional<String> signLocation,
            @ConfigProperty(name = "smallrye.jwt.sign.key") Optional<String> signInline) {
        verifyLocation.ifPresent(l -> DevelopmentKeys.refuseLocationInProduction(environment,
                "mp.jwt.verify.publickey.location (MP_JWT_VERIFY_PUBLICKEY_LOCATION)", l));
        verifyInline.ifPresent(k -> DevelopmentKeys.refuseInProduction(environment,
                "mp.jwt.verify.publickey (MP_JWT_VERIFY_PUBLICKEY)", k));
        signLocation.ifPresent(l -> DevelopmentKeys.refuseLocationInProduction(environment,
                "smallrye.jwt.sign.key.location (INTERNAL_JWT_PRIVATE_KEY_LOCATION)", l));
        signInline.ifPresent(k -> DevelopmentKeys.refuseInProduction(environment,
                "smallrye.jwt.sign.key (SMALLRYE_JWT_SIGN_KEY)", k));
    }
}
