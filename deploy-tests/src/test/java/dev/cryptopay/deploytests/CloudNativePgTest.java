package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * CloudNativePG publishes no schema or Java model reachable from these machines, so this checks the fields the
 * manifests use, by name and by value, against the {@code postgresql.cnpg.io/v1} API reference (CloudNativePG
 * 1.25-1.30, where {@code spec.backup.barmanObjectStore} is still served): every field path used must be one of
 * {@link #CLUSTER_FIELDS} / {@link #SCHEDULED_BACKUP_FIELDS} (a misspelt or invented field fails), the values keep
 * the API's formats (quantities, the retention pattern, the six-field cron), and the references hold together
 * (one cluster per service database, each backed up on a schedule to its own place, each service reading the
 * Secret the operator creates for its cluster). It cannot catch a field that the operator would reject for a
 * reason not written here; the rest of the manifests is checked against real schemas in {@link SchemaTest}.
 */
class CloudNativePgTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;
    private static final List<String> DATABASES = List.of("gateway", "merchant", "transaction", "subscription",
            "webhook", "reporting");

    /** Field paths of Cluster used here, as the API reference names them ([] = list item, * = map key). */
    static final Set<String> CLUSTER_FIELDS = Set.of(
            "apiVersion", "kind", "metadata", "metadata.name", "metadata.namespace", "metadata.labels",
            "metadata.labels.*", "metadata.annotations", "metadata.annotations.*",
            "spec", "spec.instances", "spec.imageName", "spec.primaryUpdateStrategy",
            "spec.bootstrap", "spec.bootstrap.initdb", "spec.bootstrap.initdb.database", "spec.bootstrap.initdb.owner",
            "spec.postgresql", "spec.postgresql.parameters", "spec.postgresql.parameters.*",
            "spec.storage", "spec.storage.size", "spec.storage.storageClass",
            "spec.affinity", "spec.affinity.enablePodAntiAffinity", "spec.affinity.topologyKey",
            "spec.resources", "spec.resources.requests", "spec.resources.requests.cpu",
            "spec.resources.requests.memory", "spec.resources.limits", "spec.resources.limits.cpu",
            "spec.resources.limits.memory",
            "spec.backup", "spec.backup.retentionPolicy", "spec.backup.barmanObjectStore",
            "spec.backup.barmanObjectStore.destinationPath", "spec.backup.barmanObjectStore.endpointURL",
            "spec.backup.barmanObjectStore.s3Credentials",
            "spec.backup.barmanObjectStore.s3Credentials.accessKeyId",
            "spec.backup.barmanObjectStore.s3Credentials.accessKeyId.name",
            "spec.backup.barmanObjectStore.s3Credentials.accessKeyId.key",
            "spec.backup.barmanObjectStore.s3Credentials.secretAccessKey",
            "spec.backup.barmanObjectStore.s3Credentials.secretAccessKey.name",
            "spec.backup.barmanObjectStore.s3Credentials.secretAccessKey.key",
            "spec.backup.barmanObjectStore.wal", "spec.backup.barmanObjectStore.wal.compression",
            "spec.backup.barmanObjectStore.wal.maxParallel",
            "spec.backup.barmanObjectStore.data", "spec.backup.barmanObjectStore.data.compression");

    static final Set<String> SCHEDULED_BACKUP_FIELDS = Set.of(
            "apiVersion", "kind", "metadata", "metadata.name", "metadata.namespace", "metadata.labels",
            "metadata.labels.*", "spec", "spec.schedule", "spec.immediate", "spec.backupOwnerReference",
            "spec.method", "spec.cluster", "spec.cluster.name");

    private static final Pattern QUANTITY = Pattern.compile("^[0-9]+(\\.[0-9]+)?(m|Ki|Mi|Gi|Ti)?$");
    /** The API's pattern for spec.backup.retentionPolicy. */
    private static final Pattern RETENTION = Pattern.compile("^[1-9][0-9]*[dwm]$");
    private static final Pattern COMPRESSION = Pattern.compile("^(bzip2|gzip|lz4|snappy|xz|zstd)$");

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyFieldUsedIsOneTheApiHas(String overlay) {
        Manifests manifests = Manifests.of(overlay);
        List<String> unknown = new ArrayList<>();
        manifests.kind("Cluster").forEach(c -> paths(c, "", unknown, CLUSTER_FIELDS, Manifests.id(c)));
        manifests.kind("ScheduledBackup").forEach(b -> paths(b, "", unknown, SCHEDULED_BACKUP_FIELDS,
                Manifests.id(b)));
        assertEquals(List.of(), unknown, overlay);
        manifests.kind("Cluster").forEach(c -> assertEquals("postgresql.cnpg.io/v1", c.path("apiVersion").asText()));
    }

    /** The check above catches an invented field (so it can fail). */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void anInventedFieldIsCaught(String overlay) {
        ObjectNode cluster = Manifests.of(overlay).kind("Cluster").findFirst().orElseThrow().deepCopy();
        ((ObjectNode) cluster.path("spec").path("backup")).put("retentionPolicies", "30d");
        List<String> unknown = new ArrayList<>();
        paths(cluster, "", unknown, CLUSTER_FIELDS, "c");
        assertEquals(List.of("c: spec.backup.retentionPolicies"), unknown);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void oneClusterPerServiceDatabaseWithBackupsAndItsSecretUsed(String overlay) {
        Manifests manifests = Manifests.of(overlay);
        Map<String, JsonNode> clusters = manifests.kind("Cluster")
                .collect(Collectors.toMap(Manifests::name, c -> c));
        assertEquals(DATABASES.stream().map(d -> d + "-db").collect(Collectors.toSet()), clusters.keySet());
        Set<String> destinations = new HashSet<>();
        int expectedInstances = overlay.equals("production") ? 3 : 1;
        for (String db : DATABASES) {
            JsonNode spec = clusters.get(db + "-db").path("spec");
            assertEquals(expectedInstances, spec.path("instances").asInt(-1), db + " instances");
            assertTrue(spec.path("instances").isInt(), "instances is an integer");
            assertEquals(db, spec.path("bootstrap").path("initdb").path("database").asText(), db);
            assertEquals(db, spec.path("bootstrap").path("initdb").path("owner").asText(), db);
            assertTrue(QUANTITY.matcher(spec.path("storage").path("size").asText()).matches(), db + " storage");
            for (String kind : List.of("requests", "limits")) {
                for (String resource : List.of("cpu", "memory")) {
                    assertTrue(QUANTITY.matcher(spec.path("resources").path(kind).path(resource).asText()).matches(),
                            db + " resources." + kind + "." + resource);
                }
            }
            spec.path("postgresql").path("parameters").forEach(v -> assertTrue(v.isTextual(),
                    db + ": PostgreSQL parameters are strings in the API"));
            JsonNode backup = spec.path("backup");
            assertTrue(RETENTION.matcher(backup.path("retentionPolicy").asText()).matches(), db + " retention");
            JsonNode store = backup.path("barmanObjectStore");
            String destination = store.path("destinationPath").asText();
            assertTrue(destination.startsWith("s3://cryptopay-backups/" + overlay + "/"), destination);
            assertTrue(destinations.add(destination), "two clusters back up to " + destination);
            assertTrue(COMPRESSION.matcher(store.path("wal").path("compression").asText()).matches());
            assertTrue(COMPRESSION.matcher(store.path("data").path("compression").asText()).matches());
            assertTrue(store.path("wal").path("maxParallel").isInt());
            for (String credential : List.of("accessKeyId", "secretAccessKey")) {
                JsonNode ref = store.path("s3Credentials").path(credential);
                assertEquals("cryptopay-backup-s3", ref.path("name").asText(), credential);
                assertTrue(!ref.path("key").asText().isEmpty(), credential);
            }
            List<JsonNode> schedules = manifests.kind("ScheduledBackup")
                    .filter(b -> b.path("spec").path("cluster").path("name").asText().equals(db + "-db")).map(b -> (JsonNode) b)
                    .toList();
            assertEquals(1, schedules.size(), db + ": one ScheduledBackup");
            JsonNode schedule = schedules.get(0).path("spec");
            assertEquals(6, schedule.path("schedule").asText().trim().split("\\s+").length,
                    db + ": CloudNativePG schedules have six fields (seconds first)");
            assertEquals("barmanObjectStore", schedule.path("method").asText());
            assertTrue(Set.of("self", "cluster", "none").contains(schedule.path("backupOwnerReference").asText()));
            assertTrue(schedule.path("immediate").isBoolean());

            // the service reads the Secret <cluster>-app that the operator creates (username, password, jdbc-uri)
            JsonNode deployment = manifests.find("Deployment", db + "-service").orElseThrow();
            Map<String, String> refs = new java.util.HashMap<>();
            deployment.path("spec").path("template").path("spec").path("containers").get(0).path("env")
                    .forEach(e -> {
                        JsonNode ref = e.path("valueFrom").path("secretKeyRef");
                        if (!ref.isMissingNode()) {
                            refs.put(e.path("name").asText(), ref.path("name").asText() + "/" + ref.path("key").asText());
                        }
                    });
            assertEquals(db + "-db-app/jdbc-uri", refs.get("DB_URL"), db);
            assertEquals(db + "-db-app/username", refs.get("DB_USER"), db);
            assertEquals(db + "-db-app/password", refs.get("DB_PASSWORD"), db);
        }
    }

    /** Collects the field paths of {@code node} that are not in {@code allowed}. */
    static void paths(JsonNode node, String path, List<String> unknown, Set<String> allowed, String id) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> field = it.next();
                String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                String wildcard = path.isEmpty() ? "*" : path + ".*";
                if (allowed.contains(child)) {
                    paths(field.getValue(), child, unknown, allowed, id);
                } else if (allowed.contains(wildcard)) {
                    paths(field.getValue(), wildcard, unknown, allowed, id);
                } else {
                    unknown.add(id + ": " + child);
                }
            }
        } else if (node.isArray()) {
            node.forEach(item -> paths(item, path + "[]", unknown, allowed, id));
        }
    }

    static Set<String> sorted(Set<String> set) {
        return new TreeSet<>(set);
    }
}
