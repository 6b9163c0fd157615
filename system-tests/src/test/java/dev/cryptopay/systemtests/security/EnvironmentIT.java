package dev.cryptopay.systemtests.security;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.Suite;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Security finding "the environment fails open" (docs/security.md): a packaged service whose
 * {@code CRYPTOPAY_ENVIRONMENT} is missing, empty or misspelt used to run as the sandbox (sandbox chain, test keys,
 * no webhook address filter). Now it refuses to start and says why. Each service reads the value through the same
 * service-support class; merchant-service and webhook-service (the one that treated the value the other way round)
 * are started here from their packaged jars with only the environment variable wrong.
 */
class EnvironmentIT {

    /** Ports nothing else uses; a service that wrongly starts is stopped at the end of the test (RefusedStart). */
    private static final int PORT = 18190;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"merchant:<unset>", "merchant:prod", "merchant:Sandbox", "merchant:", "webhook:<unset>",
            "webhook:prod", "webhook:PRODUCTION "})
    void aPackagedServiceRefusesToStartWithoutAValidEnvironment(String caseName) throws Exception {
        String service = caseName.substring(0, caseName.indexOf(':'));
        String value = caseName.substring(caseName.indexOf(':') + 1);
        Map<String, String> env = new HashMap<>();
        if (!value.equals("<unset>")) {
            env.put("CRYPTOPAY_ENVIRONMENT", value);
        }
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION",
                Suite.get().root().resolve("deploy/local/keys/local-dev-internal-public.pem").toString());
        // every other required secret present (a fresh one, not a committed development key), so the environment is
        // the only thing missing
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        env.put("WEBHOOK_SECRET_ENCRYPTION_KEY", Base64.getEncoder().encodeToString(key));
        env.put("KYC_DOCUMENT_ENCRYPTION_KEY", Base64.getEncoder().encodeToString(key));

        String output = RefusedStart.of(service,
                "environment-" + service + "-" + value.strip().replaceAll("[^A-Za-z]", "_"), PORT, env);
        assertTrue(output.contains("cryptopay.environment"), "the failure names the setting:\n" + output);
    }
}
