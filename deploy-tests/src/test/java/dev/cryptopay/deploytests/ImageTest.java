package dev.cryptopay.deploytests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;

/**
 * The service images that {@code ./mvnw package -Dcryptopay.image} builds (Quarkus' Jib extension, on the base of
 * deploy/docker/jvm-base.sh) as {@code <service>/target/image/<service>.tar}: each one's config (non-root user,
 * entrypoint, working directory, exposed ports, name and tag), and one image run as a container runtime would -
 * its layers unpacked in order into a root file system, its entrypoint started in that root (own PID namespace and
 * /proc, the image's user and working directory, the image's environment plus the service's settings) against the
 * test PostgreSQL and Kafka, until its readiness check answers 200.
 */
class ImageTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VERSION = "0.1.0-SNAPSHOT";

    record Image(JsonNode manifest, JsonNode config, Map<String, byte[]> blobs) {
    }

    @Test
    void everyServiceImageRunsAsNonRootWithItsEntrypointAndPorts() throws IOException {
        for (Map.Entry<String, Integer> service : Repo.SERVICES.entrySet()) {
            String name = service.getKey();
            int port = service.getValue();
            Image image = read(tarball(name), false);
            assertEquals("cryptopay/" + name + ":" + VERSION, image.manifest().path("RepoTags").get(0).asText());
            JsonNode config = image.config().path("config");
            assertEquals("185", config.path("User").asText(), name + ": user");
            assertEquals("/home/jboss", config.path("WorkingDir").asText(), name);
            List<String> entrypoint = strings(config.path("Entrypoint"));
            assertEquals("java", entrypoint.get(0), name + ": " + entrypoint);
            assertEquals(List.of("-jar", "quarkus-run.jar"), entrypoint.subList(entrypoint.size() - 2, entrypoint.size()),
                    name);
            assertTrue(entrypoint.contains("-XX:MaxRAMPercentage=75"), name + ": heap follows the memory limit");
            Set<String> ports = new HashSet<>();
            config.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
            assertEquals(Set.of(port + "/tcp", (port + 100) + "/tcp"), ports, name + ": exposed ports");
            Map<String, String> env = env(config);
            assertTrue(env.get("PATH").startsWith("/opt/java/bin:"), name + ": " + env);
            env.keySet().forEach(k -> assertFalse(k.contains("PASSWORD") || k.contains("SECRET"), name + " env " + k));
            assertEquals("linux", image.config().path("os").asText(), name);
            // the base layer, then Quarkus' layers (libraries, boot libraries, quarkus-run.jar, app, quarkus, work dir)
            assertTrue(image.manifest().path("Layers").size() >= 5, name + ": layers " + image.manifest());
            assertEquals(image.manifest().path("Layers").size(),
                    image.config().path("rootfs").path("diff_ids").size(), name);
        }
    }

    @Test
    void theReportingServiceImageStartsFromItsUnpackedLayers() throws Exception {
        Path tarball = tarball("reporting-service");
        Image image = read(tarball, true);
        Path rootfs = tarball.getParent().resolve("rootfs");
        unpack(image, rootfs);
        // What a container runtime provides: /proc (mounted by unshare), /etc/hosts, and the mounted Secret.
        Files.createDirectories(rootfs.resolve("proc"));
        Files.writeString(rootfs.resolve("etc/hosts"), "127.0.0.1 localhost " + java.net.InetAddress.getLocalHost()
                .getHostName() + "\n");
        Files.createDirectories(rootfs.resolve("keys"));
        Files.copy(Repo.root().resolve("deploy/local/keys/local-dev-internal-public.pem"),
                rootfs.resolve("keys/internal-public.pem"));
        JsonNode config = image.config().path("config");
        List<String> entrypoint = strings(config.path("Entrypoint"));
        Map<String, String> env = env(config);

        // the runtime: `java -version` as the image's user
        Repo.Result version = Repo.run(container(rootfs, config, List.of(entrypoint.get(0), "-version")), env);
        assertEquals(0, version.exitCode(), version.stderr() + version.stdout());
        assertTrue(version.stderr().contains("Runtime Environment"), version.stderr());

        // the service: its entrypoint with its configuration, until it is ready
        int port = 28085;
        int management = port + 100;
        env.put("CRYPTOPAY_ENVIRONMENT", "sandbox");
        env.put("PORT", String.valueOf(port));
        env.put("MANAGEMENT_PORT", String.valueOf(management));
        env.put("HTTP_HOST", "127.0.0.1");
        env.put("MANAGEMENT_HOST", "127.0.0.1");
        env.put("DB_URL", "jdbc:postgresql://127.0.0.1:5432/reporting_test");
        env.put("KAFKA_BOOTSTRAP_SERVERS", System.getProperty("test.kafka.bootstrap", "127.0.0.1:19092"));
        // Its own consumer groups: an instance that outlived the test must never take partitions from the system
        // tests' reporting-service on the same broker (seen once: ReportingIT then read an empty store).
        env.put("REPORTING_GROUP", "image-test-" + UUID.randomUUID());
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", "/keys/internal-public.pem");
        Path log = tarball.getParent().resolve("reporting-service-container.log");
        ProcessBuilder builder = new ProcessBuilder(container(rootfs, config, entrypoint))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
            URI ready = URI.create("http://127.0.0.1:" + management + "/q/health/ready");
            Instant deadline = Instant.now().plusSeconds(90);
            int status = 0;
            while (Instant.now().isBefore(deadline) && process.isAlive()) {
                try {
                    status = client.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.discarding())
                            .statusCode();
                    if (status == 200) {
                        break;
                    }
                } catch (IOException e) {
                    // not listening yet
                }
                Thread.sleep(500);
            }
            assertEquals(200, status, "not ready; see " + log + ":\n" + tail(log));
            String started = Files.readString(log);
            assertTrue(started.contains("reporting-service"), started);
        } finally {
            stop(process);
        }
    }

    /**
     * Stops the container's processes: the service first (a child of unshare; unshare's --kill-child does not reach
     * it, because the parent-death signal is cleared when the child changes to the image's user), then unshare.
     * A service left running would keep writing into the test database and reading the test broker.
     */
    private static void stop(Process process) throws InterruptedException {
        List<ProcessHandle> children = process.descendants().toList();
        children.forEach(ProcessHandle::destroy);
        process.destroy();
        for (ProcessHandle child : children) {
            try {
                child.onExit().get(20, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                child.destroyForcibly();
            }
        }
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertTrue(children.stream().noneMatch(ProcessHandle::isAlive), "the container's service outlived the test");
    }

    /** The command that runs {@code args} in {@code rootfs} as the image's user, in its working directory. */
    private static List<String> container(Path rootfs, JsonNode config, List<String> args) {
        String[] user = config.path("User").asText("0").split(":");
        List<String> command = new ArrayList<>(List.of("unshare", "--fork", "--pid", "--mount", "--mount-proc=/proc",
                "--kill-child=SIGTERM", "--root=" + rootfs, "--wd=" + config.path("WorkingDir").asText("/"),
                "--setuid=" + user[0], "--setgid=" + (user.length > 1 ? user[1] : "0")));
        command.addAll(args);
        return command;
    }

    private static Path tarball(String service) {
        Path tarball = Repo.root().resolve(service + "/target/image/" + service + ".tar");
        if (!Files.isRegularFile(tarball)) {
            fail(tarball + " is missing: the images are built with -Dcryptopay.image (deploy/local/test passes it), "
                    + "e.g. ./mvnw package -DskipTests -Dcryptopay.image -pl " + service + " -am");
        }
        return tarball;
    }

    /** Reads a `docker save`-format tarball: manifest.json, the config it names, and (if asked) every blob. */
    static Image read(Path tarball, boolean withLayers) throws IOException {
        Map<String, byte[]> files = new HashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(tarball)))) {
            for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null;) {
                String name = entry.getName().replaceFirst("^\\./", "");
                if (entry.isFile() && (withLayers || name.endsWith(".json"))) {
                    files.put(name, tar.readAllBytes());
                }
            }
        }
        JsonNode manifest = JSON.readTree(files.get("manifest.json"));
        assertEquals(1, manifest.size(), "one image per tarball");
        JsonNode config = JSON.readTree(files.get(manifest.get(0).path("Config").asText()));
        return new Image(manifest.get(0), config, files);
    }

    /** Applies the layers in order, as a runtime does (no whiteouts are expected in these images). */
    static void unpack(Image image, Path rootfs) throws IOException {
        if (Files.exists(rootfs)) {
            Repo.Result removed = Repo.run(List.of("rm", "-rf", rootfs.toString()));
            assertEquals(0, removed.exitCode(), removed.stderr());
        }
        Files.createDirectories(rootfs);
        for (JsonNode layer : image.manifest().path("Layers")) {
            byte[] blob = image.blobs().get(layer.asText());
            InputStream in = new java.io.ByteArrayInputStream(blob);
            if (blob.length > 2 && (blob[0] & 0xff) == 0x1f && (blob[1] & 0xff) == 0x8b) {
                in = new GZIPInputStream(in);
            }
            try (TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
                for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null;) {
                    String name = entry.getName().replaceFirst("^\\./", "").replaceFirst("^/", "");
                    assertFalse(Path.of(name).getFileName() != null
                            && Path.of(name).getFileName().toString().startsWith(".wh."), "whiteout " + name);
                    Path target = rootfs.resolve(name).normalize();
                    assertTrue(target.startsWith(rootfs), "entry outside the root: " + name);
                    if (entry.isDirectory()) {
                        Files.createDirectories(target);
                    } else if (entry.isSymbolicLink()) {
                        Files.createDirectories(target.getParent());
                        Files.deleteIfExists(target);
                        Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                    } else if (entry.isLink()) {
                        Files.createDirectories(target.getParent());
                        Files.deleteIfExists(target);
                        Files.createLink(target, rootfs.resolve(entry.getLinkName().replaceFirst("^\\./", "")
                                .replaceFirst("^/", "")));
                    } else if (entry.isFile()) {
                        Files.createDirectories(target.getParent());
                        Files.copy(tar, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    } else {
                        continue;
                    }
                    if (!entry.isSymbolicLink()) {
                        Files.setPosixFilePermissions(target, permissions(entry.getMode()));
                        Files.setAttribute(target, "unix:uid", (int) entry.getLongUserId(), LinkOption.NOFOLLOW_LINKS);
                        Files.setAttribute(target, "unix:gid", (int) entry.getLongGroupId(), LinkOption.NOFOLLOW_LINKS);
                    }
                }
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = { PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_READ };
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << i)) != 0) {
                out.add(bits[i]);
            }
        }
        return out;
    }

    private static Map<String, String> env(JsonNode config) {
        Map<String, String> env = new HashMap<>();
        config.path("Env").forEach(e -> {
            String[] kv = e.asText().split("=", 2);
            env.put(kv[0], kv.length > 1 ? kv[1] : "");
        });
        return env;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
