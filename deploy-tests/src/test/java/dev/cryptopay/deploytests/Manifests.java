package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/** The manifests of one overlay as `kubectl kustomize deploy/k8s/overlays/NAME` renders them (once per JVM). */
final class Manifests {

    static final List<String> OVERLAYS = List.of("sandbox", "production");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Map<String, Manifests> RENDERED = new ConcurrentHashMap<>();

    final String overlay;
    final List<ObjectNode> resources;

    private Manifests(String overlay, List<ObjectNode> resources) {
        this.overlay = overlay;
        this.resources = resources;
    }

    static Manifests of(String overlay) {
        return RENDERED.computeIfAbsent(overlay, Manifests::render);
    }

    private static Manifests render(String overlay) {
        Repo.Result result = Repo.run(Repo.command("kubectl", "kustomize", "deploy/k8s/overlays/" + overlay));
        assertEquals(0, result.exitCode(), "kubectl kustomize deploy/k8s/overlays/" + overlay + ":\n" + result.stderr());
        List<ObjectNode> docs = new ArrayList<>();
        try (YAMLParser parser = new YAMLFactory().createParser(result.stdout())) {
            YAML.readValues(parser, JsonNode.class).forEachRemaining(node -> {
                if (node != null && !node.isNull() && !node.isEmpty()) {
                    docs.add((ObjectNode) node);
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("the rendered " + overlay + " overlay is not YAML", e);
        }
        return new Manifests(overlay, List.copyOf(docs));
    }

    Stream<ObjectNode> kind(String kind) {
        return resources.stream().filter(r -> kind.equals(r.path("kind").asText()));
    }

    /** The data of the ConfigMap cryptopay-common, every service's shared environment (its name ends in a hash). */
    JsonNode commonConfig() {
        return kind("ConfigMap").filter(c -> name(c).startsWith("cryptopay-common")).findFirst().orElseThrow()
                .path("data");
    }

    Optional<ObjectNode> find(String kind, String name) {
        return kind(kind).filter(r -> name.equals(name(r))).findFirst();
    }

    static String name(JsonNode resource) {
        return resource.path("metadata").path("name").asText();
    }

    static String id(JsonNode resource) {
        return resource.path("apiVersion").asText() + "/" + resource.path("kind").asText() + " " + name(resource);
    }
}
