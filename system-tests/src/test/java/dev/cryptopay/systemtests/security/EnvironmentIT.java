package dev.cryptopay.systemtests.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.Suite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

    /** Ports nothing else uses; a service that wrongly starts is stopped at the end of the test. */
    private static final int PORT = 18190;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"merchant:<unset>", "merchant:prod", "merchant:Sandbox", "merchant:", "webhook:<unset>",
            "webhook:prod", "webhook:PRODUCTION "})
    void aPackagedServiceRefusesToStartWithoutAValidEnvironment(String caseName) throws Exception {
        String service = caseName.substring(0, caseName.indexOf(':'));
        String value = caseName.substring(caseName.indexOf(':') + 1);
        Path root = Suite.get().root();
        Path jar = root.resolve(service + "-service/target/quarkus-app/quarkus-run.jar");
        Path log = root.resolve("system-tests/target/suite-logs/environment-" + service + "-"
                + value.strip().replaceAll("[^A-Za-z]", "_") + ".log");
        Files.createDirectories(log.getParent());

        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-Xmx128m", "-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.remove("CRYPTOPAY_ENVIRONMENT");
        if (!value.equals("<unset>")) {
            env.put("CRYPTOPAY_ENVIRONMENT", value);
        }
        env.put("PORT", String.valueOf(PORT));
        env.put("MANAGEMENT_PORT", String.valueOf(PORT + 1));
        env.put("HTTP_HOST", "127.0.0.1");
        env.put("MANAGEMENT_HOST", "127.0.0.1");
        env.put("DB_URL", Suite.jdbcUrl(service));
        env.put("KAFKA_BOOTSTRAP_SERVERS", Suite.KAFKA);
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION",
                root.resolve("deploy/local/keys/local-dev-internal-public.pem").toString());
        // every other required secret present (a fresh one, not a committed development key), so the environment is
        // the only thing missing
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        env.put("WEBHOOK_SECRET_ENCRYPTION_KEY", java.util.Base64.getEncoder().encodeToString(key));
        env.put("KYC_DOCUMENT_ENCRYPTION_KEY", java.util.Base64.getEncoder().encodeToString(key));

        Process process = builder.start();
        try {
            boolean exited = process.waitFor(60, TimeUnit.SECONDS);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertTrue(exited, "the service kept running with CRYPTOPAY_ENVIRONMENT=" + value + ":\n" + output);
            assertNotEquals(0, process.exitValue(), output);
            assertTrue(output.contains("cryptopay.environment"), "the failure names the setting:\n" + output);
            assertFalse(output.contains("Listening on"), "it never listened:\n" + output);
            // the check runs before the Kafka channels connect (StartupChecks): no running replica's consumer group
            // is rebalanced by a start that is refused
            assertFalse(output.contains("Kafka consumer"), "it joined no consumer group:\n" + output);
        } finally {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
