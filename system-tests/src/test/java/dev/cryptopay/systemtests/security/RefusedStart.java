package dev.cryptopay.systemtests.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.Suite;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts one packaged service on its own, beside the suite, with a configuration it must refuse (EnvironmentIT,
 * DevelopmentKeysIT), and checks what every refused start has in common: it exits with a non-zero status, never
 * listens, and joins no consumer group, because the checks run before the Kafka channels connect (StartupChecks), so
 * no running replica's group is rebalanced by it. Its log is {@code system-tests/target/suite-logs/<logName>.log}.
 */
final class RefusedStart {

    private RefusedStart() {
    }

    /**
     * The service's output, once the checks above passed. {@code env} comes on top of the suite's database, broker,
     * loopback ports from {@code port} and no {@code CRYPTOPAY_ENVIRONMENT}.
     */
    static String of(String service, String logName, int port, Map<String, String> env) throws Exception {
        Path root = Suite.get().root();
        Path jar = root.resolve(service + "-service/target/quarkus-app/quarkus-run.jar");
        Path log = root.resolve("system-tests/target/suite-logs/" + logName + ".log");
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-Xmx128m",
                // a start that ends in seconds: C1 only and Serial GC, as the suite's services (3.2 s against 5.7 s
                // of CPU for a refused merchant-service start)
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        environment.remove("CRYPTOPAY_ENVIRONMENT");
        environment.put("PORT", String.valueOf(port));
        environment.put("MANAGEMENT_PORT", String.valueOf(port + 1));
        environment.put("HTTP_HOST", "127.0.0.1");
        environment.put("MANAGEMENT_HOST", "127.0.0.1");
        environment.put("DB_URL", Suite.jdbcUrl(service));
        environment.put("KAFKA_BOOTSTRAP_SERVERS", Suite.KAFKA);
        environment.putAll(env);
        Process process = builder.start();
        try {
            boolean exited = process.waitFor(60, TimeUnit.SECONDS);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertTrue(exited, service + " kept running with " + env.keySet() + ":\n" + output);
            assertNotEquals(0, process.exitValue(), output);
            assertFalse(output.contains("Listening on"), "it never listened:\n" + output);
            assertFalse(output.contains("Kafka consumer"), "it joined no consumer group:\n" + output);
            return output;
        } finally {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
