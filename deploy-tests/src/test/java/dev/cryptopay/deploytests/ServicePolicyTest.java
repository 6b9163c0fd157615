package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The rules every service's manifests keep, in both overlays: probes on the management port's health endpoints,
 * requests and limits, a PodDisruptionBudget, a NetworkPolicy, a ServiceMonitor, a hardened pod; only the gateway
 * reachable from outside; autoscaling where the issue asks for it; the Kafka topics of docs/decisions.md §8; and no secret
 * value anywhere in what is committed.
 */
class ServicePolicyTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyServiceHasProbesLimitsADisruptionBudgetAndANetworkPolicy(String overlay) {
        Manifests m = Manifests.of(overlay);
        assertEquals(Repo.SERVICES.keySet(), m.kind("Deployment").map(Manifests::name).collect(Collectors.toSet()));
        int replicas = overlay.equals("production") ? 3 : 2;
        Repo.SERVICES.forEach((service, port) -> {
            JsonNode deployment = m.find("Deployment", service).orElseThrow();
            assertEquals(replicas, deployment.path("spec").path("replicas").asInt(), service + " replicas");
            JsonNode pod = deployment.path("spec").path("template");
            Map<String, String> labels = labels(pod.path("metadata").path("labels"));
            JsonNode podSpec = pod.path("spec");
            assertEquals(1, podSpec.path("containers").size(), service);
            JsonNode container = podSpec.path("containers").get(0);

            // ports: HTTP and management = HTTP + 100
            Map<String, Integer> ports = new HashMap<>();
            container.path("ports").forEach(p -> ports.put(p.path("name").asText(), p.path("containerPort").asInt()));
            assertEquals(Map.of("http", port, "management", port + 100), ports, service);
            assertEquals(String.valueOf(port), env(container, "PORT"), service);
            assertEquals(String.valueOf(port + 100), env(container, "MANAGEMENT_PORT"), service);

            // probes: SmallRye Health on the management port
            Map<String, String> probes = Map.of("startupProbe", "/q/health/started", "readinessProbe",
                    "/q/health/ready", "livenessProbe", "/q/health/live");
            probes.forEach((probe, path) -> {
                JsonNode get = container.path(probe).path("httpGet");
                assertEquals(path, get.path("path").asText(), service + " " + probe);
                assertEquals("management", get.path("port").asText(), service + " " + probe);
            });

            // requests and limits; the request never above the limit
            for (String resource : List.of("cpu", "memory")) {
                JsonNode request = container.path("resources").path("requests").path(resource);
                JsonNode limit = container.path("resources").path("limits").path(resource);
                assertFalse(request.isMissingNode() || limit.isMissingNode(), service + " " + resource);
                assertTrue(Quantity.getAmountInBytes(new Quantity(request.asText()))
                        .compareTo(Quantity.getAmountInBytes(new Quantity(limit.asText()))) <= 0,
                        service + " " + resource + " request above its limit");
            }

            // a hardened pod: non-root (the image's uid 185), read-only root, no privileges, no API token
            assertTrue(podSpec.path("securityContext").path("runAsNonRoot").asBoolean(), service);
            assertEquals(185, podSpec.path("securityContext").path("runAsUser").asInt(), service);
            assertFalse(podSpec.path("automountServiceAccountToken").asBoolean(true), service);
            JsonNode sc = container.path("securityContext");
            assertTrue(sc.path("readOnlyRootFilesystem").asBoolean(), service);
            assertFalse(sc.path("allowPrivilegeEscalation").asBoolean(true), service);
            assertEquals("ALL", sc.path("capabilities").path("drop").get(0).asText(), service);

            // a disruption budget and a network policy that select these pods, a ServiceMonitor on management
            List<JsonNode> budgets = m.kind("PodDisruptionBudget")
                    .filter(b -> selects(b.path("spec").path("selector"), labels)).map(b -> (JsonNode) b).toList();
            assertEquals(1, budgets.size(), service + ": PodDisruptionBudgets");
            assertTrue(budgets.get(0).path("spec").path("minAvailable").asInt() < replicas,
                    service + ": the budget must let one pod go");
            List<JsonNode> policies = m.kind("NetworkPolicy")
                    .filter(p -> selects(p.path("spec").path("podSelector"), labels)).map(p -> (JsonNode) p).toList();
            assertTrue(policies.stream().anyMatch(p -> p.path("metadata").path("name").asText().equals(service)
                    && p.path("spec").path("policyTypes").toString().contains("Ingress")
                    && p.path("spec").path("policyTypes").toString().contains("Egress")), service + ": NetworkPolicy");
            assertTrue(policies.stream().anyMatch(p -> p.path("spec").path("ingress").isMissingNode()
                    && p.path("spec").path("egress").isMissingNode()), service + ": the default-deny policy");
            JsonNode service1 = m.find("Service", service).orElseThrow();
            assertTrue(selectsLabels(service1.path("spec").path("selector"), labels), service);
            assertEquals("ClusterIP", service1.path("spec").path("type").asText("ClusterIP"), service);
            JsonNode monitor = m.find("ServiceMonitor", service).orElseThrow();
            assertTrue(selects(monitor.path("spec").path("selector"), labels(service1.path("metadata").path("labels"))));
            assertEquals("management", monitor.path("spec").path("endpoints").get(0).path("port").asText());
            assertEquals("/q/metrics", monitor.path("spec").path("endpoints").get(0).path("path").asText());
        });
    }

    /** Only the gateway is reachable from outside: one Ingress, to it; no other service takes outside traffic. */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void onlyTheGatewayIsReachableFromOutside(String overlay) {
        Manifests m = Manifests.of(overlay);
        List<ObjectNode> ingresses = m.kind("Ingress").toList();
        assertEquals(1, ingresses.size());
        ingresses.get(0).path("spec").path("rules").forEach(rule -> rule.path("http").path("paths").forEach(path ->
                assertEquals("gateway-service", path.path("backend").path("service").path("name").asText())));
        m.kind("Service").forEach(s -> assertEquals("ClusterIP", s.path("spec").path("type").asText("ClusterIP"),
                Manifests.name(s)));
        for (String service : Repo.SERVICES.keySet()) {
            JsonNode policy = m.find("NetworkPolicy", service).orElseThrow();
            Set<String> callers = new HashSet<>();
            boolean fromOutsideNamespace = false;
            for (JsonNode rule : policy.path("spec").path("ingress")) {
                boolean http = rule.path("ports").toString().contains("\"http\"");
                for (JsonNode from : rule.path("from")) {
                    if (!from.path("ipBlock").isMissingNode()) {
                        throw new AssertionError(service + ": no ipBlock may reach a service");
                    }
                    if (from.has("namespaceSelector") && http) {
                        fromOutsideNamespace = true;
                    }
                    if (from.path("podSelector").path("matchLabels").has("app.kubernetes.io/name")) {
                        callers.add(from.path("podSelector").path("matchLabels").path("app.kubernetes.io/name").asText());
                    }
                }
                if (!http) {
                    assertEquals("[{\"port\":\"management\"}]", rule.path("ports").toString(), service);
                }
            }
            assertEquals(service.equals("gateway-service"), fromOutsideNamespace,
                    service + ": reachable from another namespace on its HTTP port");
            Set<String> expected = switch (service) {
                case "gateway-service" -> Set.of();
                case "merchant-service" -> Set.of("gateway-service", "transaction-service");
                default -> Set.of("gateway-service");
            };
            assertEquals(expected, callers, service + ": who may call it");
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theGatewayAndTransactionServiceScaleHorizontally(String overlay) {
        Manifests m = Manifests.of(overlay);
        Map<String, JsonNode> hpas = m.kind("HorizontalPodAutoscaler")
                .collect(Collectors.toMap(Manifests::name, h -> h));
        assertEquals(Set.of("gateway-service", "transaction-service"), hpas.keySet());
        hpas.forEach((name, hpa) -> {
            JsonNode spec = hpa.path("spec");
            assertEquals("Deployment", spec.path("scaleTargetRef").path("kind").asText());
            assertEquals(name, spec.path("scaleTargetRef").path("name").asText());
            int replicas = m.find("Deployment", name).orElseThrow().path("spec").path("replicas").asInt();
            assertEquals(replicas, spec.path("minReplicas").asInt(), name + ": minReplicas = the Deployment's");
            assertTrue(spec.path("maxReplicas").asInt() > spec.path("minReplicas").asInt());
            assertEquals("cpu", spec.path("metrics").get(0).path("resource").path("name").asText());
        });
    }

    /**
     * Each gateway replica holds an account to its rate on its own; the open-transaction quota trusts that at most
     * {@code CRYPTOPAY_LIMITS_GATEWAY_REPLICAS} of them run (docs/decisions.md §97). More would let a count stand too
     * long.
     */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theServicesKnowHowManyGatewayReplicasMayRun(String overlay) {
        Manifests m = Manifests.of(overlay);
        int maxReplicas = m.find("HorizontalPodAutoscaler", "gateway-service").orElseThrow()
                .path("spec").path("maxReplicas").asInt();
        assertEquals(String.valueOf(maxReplicas), m.commonConfig().path("CRYPTOPAY_LIMITS_GATEWAY_REPLICAS").asText(),
                overlay + ": cryptopay-common's CRYPTOPAY_LIMITS_GATEWAY_REPLICAS = the gateway autoscaler's maxReplicas");
    }

    /** No Secret with a value, no secret-looking literal in an env var, no key material anywhere. */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void noSecretCarriesAValue(String overlay) throws IOException {
        Manifests m = Manifests.of(overlay);
        m.kind("Secret").forEach(s -> {
            assertTrue(s.path("data").isMissingNode() || s.path("data").isEmpty(), Manifests.id(s) + " has data");
            assertTrue(s.path("stringData").isMissingNode() || s.path("stringData").isEmpty(),
                    Manifests.id(s) + " has stringData");
        });
        Pattern secretName = Pattern.compile("PASSWORD|SECRET|PRIVATE|TOKEN|CREDENTIAL|ENCRYPTION|(^|_)KEY$");
        for (ObjectNode resource : m.resources) {
            envVars(resource).forEach(e -> {
                String name = e.path("name").asText();
                if (secretName.matcher(name).find() && !name.endsWith("_LOCATION")) {
                    assertTrue(e.path("value").isMissingNode() && e.path("valueFrom").has("secretKeyRef"),
                            Manifests.id(resource) + ": " + name + " must come from a Secret");
                }
            });
        }
        m.kind("ConfigMap").forEach(c -> c.path("data").fieldNames().forEachRemaining(k ->
                assertFalse(secretName.matcher(k.toUpperCase()).find(), Manifests.id(c) + " holds " + k)));
        String rendered = Manifests.YAML.writeValueAsString(m.resources);
        assertFalse(rendered.contains("-----BEGIN"), "key material in the manifests");
        // nor in the kustomizations' generators (a secretGenerator would commit a value)
        try (var files = Files.walk(Repo.root().resolve("deploy/k8s"))) {
            for (var file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                assertFalse(Files.readString(file).contains("secretGenerator"), file + " generates a Secret");
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theEnvironmentIsSetExplicitly(String overlay) {
        Manifests m = Manifests.of(overlay);
        List<ObjectNode> common = m.kind("ConfigMap")
                .filter(c -> Manifests.name(c).startsWith("cryptopay-common")).toList();
        assertEquals(1, common.size());
        assertEquals(overlay, common.get(0).path("data").path("CRYPTOPAY_ENVIRONMENT").asText());
        assertEquals(overlay.equals("production") ? "cryptopay" : "cryptopay-sandbox",
                m.find("Deployment", "gateway-service").orElseThrow().path("metadata").path("namespace").asText());
        m.kind("Deployment").forEach(d -> assertTrue(d.path("spec").path("template").path("spec").path("containers")
                .get(0).path("envFrom").toString().contains(Manifests.name(common.get(0))), Manifests.id(d)));
    }

    /** The KafkaTopics are the topics of deploy/local/kafka.sh (docs/decisions.md §8), with production's replication. */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyTopicOfTheLocalBrokerIsAKafkaTopicWithReplicationThree(String overlay) throws IOException {
        Map<String, String> local = new HashMap<>();
        Matcher topic = Pattern.compile("^\\s+([a-z.0-9]+v1):([0-9]+):(delete|compact|keep)$", Pattern.MULTILINE)
                .matcher(Files.readString(Repo.root().resolve("deploy/local/kafka.sh")));
        while (topic.find()) {
            local.put(topic.group(1), topic.group(3));
        }
        assertTrue(local.size() >= 6, "topics read from kafka.sh: " + local);
        Manifests m = Manifests.of(overlay);
        Map<String, JsonNode> topics = m.kind("KafkaTopic")
                .collect(Collectors.toMap(t -> t.path("spec").path("topicName").asText(), t -> t.path("spec")));
        assertEquals(local.keySet(), topics.keySet());
        local.forEach((name, policy) -> {
            JsonNode spec = topics.get(name);
            JsonNode config = spec.path("config");
            assertEquals(3, spec.path("replicas").asInt(), name);
            assertEquals("2", config.path("min.insync.replicas").asText(), name);
            assertTrue(spec.path("partitions").asInt() >= 3, name);
            switch (policy) {
                case "compact" -> assertEquals("compact", config.path("cleanup.policy").asText(), name);
                case "keep" -> {
                    assertEquals("delete", config.path("cleanup.policy").asText(), name);
                    assertEquals("-1", config.path("retention.ms").asText(), name);
                    assertEquals("-1", config.path("retention.bytes").asText(), name);
                }
                default -> assertEquals("delete", config.path("cleanup.policy").asText(), name);
            }
        });
        JsonNode kafka = m.kind("Kafka").findFirst().orElseThrow();
        assertEquals("enabled", kafka.path("metadata").path("annotations").path("strimzi.io/kraft").asText());
        assertEquals("enabled", kafka.path("metadata").path("annotations").path("strimzi.io/node-pools").asText());
        assertEquals("false", kafka.path("spec").path("kafka").path("config").path("auto.create.topics.enable").asText());
        int brokers = 0;
        int controllers = 0;
        for (ObjectNode pool : m.kind("KafkaNodePool").toList()) {
            String roles = pool.path("spec").path("roles").toString();
            int count = pool.path("spec").path("replicas").asInt();
            brokers += roles.contains("broker") ? count : 0;
            controllers += roles.contains("controller") ? count : 0;
            assertEquals("cryptopay", pool.path("metadata").path("labels").path("strimzi.io/cluster").asText());
        }
        assertTrue(brokers >= 3, "replication 3 needs three brokers: " + brokers);
        assertEquals(3, controllers, "a KRaft quorum of three");
        String bootstrap = m.commonConfig().path("KAFKA_BOOTSTRAP_SERVERS").asText();
        assertEquals(Manifests.name(kafka) + "-kafka-bootstrap:9092", bootstrap);
    }

    private static List<JsonNode> envVars(JsonNode resource) {
        List<JsonNode> out = new ArrayList<>();
        resource.path("spec").path("template").path("spec").path("containers")
                .forEach(c -> c.path("env").forEach(out::add));
        return out;
    }

    private static String env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (e.path("name").asText().equals(name)) {
                return e.path("value").asText();
            }
        }
        return null;
    }

    private static Map<String, String> labels(JsonNode node) {
        Map<String, String> out = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** A LabelSelector (matchLabels and matchExpressions with In) that selects {@code labels}. */
    static boolean selects(JsonNode selector, Map<String, String> labels) {
        if (!selectsLabels(selector.path("matchLabels"), labels)) {
            return false;
        }
        for (JsonNode expression : selector.path("matchExpressions")) {
            String value = labels.get(expression.path("key").asText());
            Set<String> values = new HashSet<>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            boolean ok = switch (expression.path("operator").asText()) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return selector.has("matchLabels") || selector.has("matchExpressions");
    }

    private static boolean selectsLabels(JsonNode matchLabels, Map<String, String> labels) {
        for (Iterator<Map.Entry<String, JsonNode>> it = matchLabels.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
