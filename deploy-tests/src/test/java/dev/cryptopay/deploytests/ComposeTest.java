package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml validated by Compose itself ({@code docker compose config}, or Debian's {@code docker-compose
 * config}; no engine needed), then what the suite expects of it read from Compose's own rendering: only the gateway
 * published, every service checked healthy on its management port and started after what it needs, the internal
 * network, and the topics of deploy/local/kafka.sh.
 */
class ComposeTest {

    @Test
    void composeValidatesTheFile() {
        Repo.Result result = Repo.run(with(compose(), "-f", "docker-compose.yml", "config", "-q"));
        assertEquals(0, result.exitCode(), result.stderr());
    }

    /** The validation can fail: an unknown depends_on condition is refused. */
    @Test
    void composeRefusesABrokenFile() throws IOException {
        Path broken = Files.createTempFile(Repo.root().resolve("deploy-tests/target"), "compose", ".yml");
        Files.writeString(broken, Files.readString(Repo.root().resolve("docker-compose.yml"))
                .replace("condition: service_completed_successfully", "condition: service_finished"));
        Repo.Result result = Repo.run(with(compose(), "-f", broken.toString(), "config", "-q"));
        assertNotEquals(0, result.exitCode(), "a broken file passed: " + result.stdout());
    }

    @Test
    void onlyTheGatewayIsPublishedAndEveryServiceStartsHealthyInOrder() throws IOException {
        Repo.Result rendered = Repo.run(with(compose(), "-f", "docker-compose.yml", "config"));
        assertEquals(0, rendered.exitCode(), rendered.stderr());
        JsonNode services = Manifests.YAML.readTree(rendered.stdout()).path("services");
        JsonNode networks = Manifests.YAML.readTree(rendered.stdout()).path("networks");
        assertTrue(networks.path("backend").path("internal").asBoolean(), "the backend network is internal");
        Set<String> published = new HashSet<>();
        services.fieldNames().forEachRemaining(name -> {
            if (services.path(name).has("ports")) {
                published.add(name);
            }
        });
        assertEquals(Set.of("gateway-service"), published);
        String ports = services.path("gateway-service").path("ports").toString();
        assertTrue(ports.contains("8080") && !ports.contains("8180"), "the gateway publishes 8080 only: " + ports);
        Repo.SERVICES.forEach((service, port) -> {
            JsonNode s = services.path(service);
            assertFalse(s.isMissingNode(), service);
            String check = s.path("healthcheck").path("test").toString();
            assertTrue(check.contains("/dev/tcp/127.0.0.1/" + (port + 100)) && check.contains("/q/health/ready"),
                    service + ": " + check);
            assertEquals("sandbox", s.path("environment").path("CRYPTOPAY_ENVIRONMENT").asText(), service);
            assertEquals(String.valueOf(port), s.path("environment").path("PORT").asText(), service);
            assertEquals(String.valueOf(port + 100), s.path("environment").path("MANAGEMENT_PORT").asText(), service);
            JsonNode dependsOn = s.path("depends_on");
            assertEquals("service_healthy", dependsOn.path("postgres").path("condition").asText(), service);
            assertEquals("service_completed_successfully", dependsOn.path("kafka-init").path("condition").asText(),
                    service);
            assertTrue(s.path("networks").has("backend"), service);
        });
        for (String other : Repo.SERVICES.keySet()) {
            if (!other.equals("gateway-service")) {
                assertEquals("service_healthy", services.path("gateway-service").path("depends_on").path(other)
                        .path("condition").asText(), "the gateway waits for " + other);
            }
        }
        assertEquals("service_healthy", services.path("kafka-init").path("depends_on").path("kafka").path("condition")
                .asText());
    }

    @Test
    void kafkaInitCreatesTheTopicsOfTheLocalBroker() throws IOException {
        Map<String, String> local = new HashMap<>();
        Matcher topic = Pattern.compile("^\\s+([a-z.0-9]+v1):([0-9]+):(delete|compact|keep)$", Pattern.MULTILINE)
                .matcher(Files.readString(Repo.root().resolve("deploy/local/kafka.sh")));
        while (topic.find()) {
            local.put(topic.group(1), topic.group(3));
        }
        Map<String, String> compose = new HashMap<>();
        Matcher create = Pattern.compile("^\\s+create ([a-z.0-9]+v1) (delete|compact)( \"--config retention.ms=-1 "
                + "--config retention.bytes=-1\")?$", Pattern.MULTILINE)
                .matcher(Files.readString(Repo.root().resolve("docker-compose.yml")));
        while (create.find()) {
            compose.put(create.group(1), create.group(3) != null ? "keep" : create.group(2));
        }
        assertTrue(local.size() >= 6, local.toString());
        assertEquals(local, compose);
    }

    /** `docker compose` when the client has the plugin, else Debian's `docker-compose`. */
    private static List<String> compose() {
        if (Repo.onPath("docker") && Repo.run(List.of("docker", "compose", "version")).exitCode() == 0) {
            return List.of("docker", "compose");
        }
        if (Repo.onPath("docker-compose")) {
            return List.of("docker-compose");
        }
        fail("neither `docker compose` nor `docker-compose` is installed (deploy/docker/deploy-tools.sh installs "
                + "Debian's docker-compose)");
        return List.of();
    }

    private static List<String> with(List<String> base, String... args) {
        List<String> out = new ArrayList<>(base);
        out.addAll(List.of(args));
        return out;
    }
}
