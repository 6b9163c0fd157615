package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every rendered resource of both overlays read strictly into its API model: the Kubernetes kinds into fabric8's
 * model (io.fabric8:kubernetes-model-*, the Kubernetes OpenAPI schema as Java types), the Strimzi kinds into
 * Strimzi's own API model (io.strimzi:api 0.45.0). "Strictly": a field of the wrong type fails deserialisation, and
 * a field the model does not know - which both models would keep aside in {@code additionalProperties} - fails
 * here, with its path. CloudNativePG kinds have no model reachable from here: {@link CloudNativePgTest} checks the
 * fields they use. Any other kind is a failure (a new kind needs a model here first).
 */
class SchemaTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    private static final Map<String, Class<?>> MODELS = Map.ofEntries(
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("networking.k8s.io/v1/Ingress", Ingress.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class),
            Map.entry("kafka.strimzi.io/v1beta2/Kafka", Kafka.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaNodePool", KafkaNodePool.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaTopic", KafkaTopic.class));

    static final List<String> CLOUDNATIVEPG = List.of("postgresql.cnpg.io/v1/Cluster",
            "postgresql.cnpg.io/v1/ScheduledBackup");

    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .build();

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyResourceReadsStrictlyIntoItsModel(String overlay) {
        Manifests manifests = Manifests.of(overlay);
        assertTrue(manifests.resources.size() > 50, "rendered only " + manifests.resources.size() + " resources");
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (ObjectNode resource : manifests.resources) {
            String type = resource.path("apiVersion").asText() + "/" + resource.path("kind").asText();
            if (CLOUDNATIVEPG.contains(type)) {
                continue;
            }
            Class<?> model = MODELS.get(type);
            if (model == null) {
                problems.add(Manifests.id(resource) + ": no API model for " + type);
                continue;
            }
            try {
                Object typed = STRICT.treeToValue(resource, model);
                List<String> unknown = new ArrayList<>();
                unknownFields(typed, Manifests.id(resource), unknown, new IdentityHashMap<>());
                problems.addAll(unknown);
                kept(resource, STRICT.valueToTree(typed), Manifests.id(resource), "", problems);
                checked++;
            } catch (Exception e) {
                problems.add(Manifests.id(resource) + ": " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        assertEquals(List.of(), problems, overlay + ": resources that do not match their schema");
        assertTrue(checked > 40, "checked only " + checked);
    }

    /** The model catches what it should: an unknown field, a misspelt one and a wrong type all fail. */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theStrictReadingRefusesWhatTheSchemaDoesNot(String overlay) throws Exception {
        ObjectNode deployment = Manifests.of(overlay).find("Deployment", "gateway-service").orElseThrow().deepCopy();
        ((ObjectNode) deployment.path("spec")).put("replica", 2); // misspelt
        List<String> unknown = new ArrayList<>();
        unknownFields(STRICT.treeToValue(deployment, Deployment.class), "d", unknown, new IdentityHashMap<>());
        assertEquals(List.of("d: unknown field spec.replica"), unknown);

        ObjectNode topic = Manifests.of(overlay).kind("KafkaTopic").findFirst().orElseThrow().deepCopy();
        ((ObjectNode) topic.path("spec")).put("partitions", "twelve");
        assertThrowsAny(() -> STRICT.treeToValue(topic, KafkaTopic.class));

        // an unknown enum value: Strimzi's model reads it as null, which the round trip reports
        ObjectNode kafka = Manifests.of(overlay).kind("Kafka").findFirst().orElseThrow().deepCopy();
        ((ObjectNode) kafka.path("spec").path("kafka").path("listeners").get(0)).put("type", "sideways");
        List<String> lost = new ArrayList<>();
        kept(kafka, STRICT.valueToTree(STRICT.treeToValue(kafka, Kafka.class)), "k", "", lost);
        assertEquals(List.of("k: spec.kafka.listeners[0].type: sideways was read as null"), lost);
    }

    /**
     * Every value of the input survives the reading into the model and back (the model may add defaults): a value
     * the model could not take - an unknown enum constant read as null, a number truncated - is reported.
     */
    static void kept(JsonNode input, JsonNode output, String id, String path, List<String> out) {
        if (input.isObject()) {
            input.fields().forEachRemaining(field -> {
                String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                JsonNode read = output == null ? null : output.get(field.getKey());
                if (read == null || read.isNull()) {
                    // models leave out a primitive at its Java default when writing (Strimzi: deleteClaim false)
                    boolean javaDefault = field.getValue().isBoolean() && !field.getValue().asBoolean()
                            || field.getValue().isNumber() && field.getValue().asDouble() == 0;
                    if (!field.getValue().isNull() && !(read == null && javaDefault)) {
                        out.add(id + ": " + child + ": " + field.getValue().asText() + " was read as null");
                    }
                } else {
                    kept(field.getValue(), read, id, child, out);
                }
            });
        } else if (input.isArray()) {
            if (output == null || !output.isArray() || output.size() != input.size()) {
                out.add(id + ": " + path + ": a list of " + input.size() + " was read as " + output);
                return;
            }
            for (int i = 0; i < input.size(); i++) {
                kept(input.get(i), output.get(i), id, path + "[" + i + "]", out);
            }
        } else if (!input.asText().equals(output.asText())) {
            out.add(id + ": " + path + ": " + input.asText() + " was read as " + output.asText());
        }
    }

    private static void assertThrowsAny(ThrowingRunnable action) {
        try {
            action.run();
        } catch (Exception expected) {
            return;
        }
        fail("expected the strict reading to fail");
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    /**
     * Walks a deserialised model object and reports every non-empty {@code additionalProperties} map of the
     * fabric8 and Strimzi classes in it: the fields the schema does not have.
     */
    static void unknownFields(Object value, String id, List<String> out, Map<Object, Boolean> seen) {
        walk(value, id, "", out, seen);
    }

    private static void walk(Object value, String id, String path, List<String> out, Map<Object, Boolean> seen) {
        if (value == null || value instanceof Enum<?> || seen.put(value, Boolean.TRUE) != null) {
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                walk(item, id, path + "[" + i++ + "]", out, seen);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, id, join(path, String.valueOf(k)), out, seen));
            return;
        }
        String pkg = value.getClass().getPackageName();
        if (!pkg.startsWith("io.fabric8.") && !pkg.startsWith("io.strimzi.")) {
            return;
        }
        for (Class<?> type = value.getClass(); type != null && (type.getPackageName().startsWith("io.fabric8.")
                || type.getPackageName().startsWith("io.strimzi.")); type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
                    continue;
                }
                Object fieldValue;
                try {
                    field.setAccessible(true);
                    fieldValue = field.get(value);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw new IllegalStateException("cannot read " + type.getName() + "." + field.getName(), e);
                }
                if (field.getName().equals("additionalProperties") && fieldValue instanceof Map<?, ?> extra) {
                    extra.keySet().forEach(k -> out.add(id + ": unknown field " + join(path, String.valueOf(k))));
                } else {
                    walk(fieldValue, id, join(path, field.getName()), out, seen);
                }
            }
        }
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    static JsonNode require(JsonNode node, String field) {
        JsonNode child = node.get(field);
        assertNotNull(child, "missing " + field);
        return child;
    }
}
