package dev.cryptopay.systemtests;

import io.restassured.RestAssured;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The six services started from their freshly built jars, once per test JVM, on ports 18080–18085 with the
 * {@code *_it} databases and the test Kafka broker that {@code deploy/local/up --test} prepared — so the
 * suite from the run command (8080–8085) can stay up meanwhile. Logs: {@code system-tests/target/suite-logs}.
 */
public final class Suite {

    public static final int GATEWAY_PORT = 18080;
    public static final String KAFKA = System.getProperty("test.kafka.bootstrap", "127.0.0.1:19092");
    private static final Map<String, Integer> SERVICES = new LinkedHashMap<>();

    static {
        SERVICES.put("merchant", 18081);
        SERVICES.put("transaction", 18082);
        SERVICES.put("subscription", 18083);
        SERVICES.put("webhook", 18084);
        SERVICES.put("reporting", 18085);
        SERVICES.put("gateway", GATEWAY_PORT);
    }

    /** The LOCAL DEVELOPMENT key of KYC documents at rest: base64 of "LOCAL-DEVELOPMENT-ONLY-kyc-key!!". */
    public static final String LOCAL_DEV_KYC_DOCUMENT_KEY = "TE9DQUwtREVWRUxPUE1FTlQtT05MWS1reWMta2V5ISE=";
    /** webhook-service's LOCAL DEVELOPMENT key for signing secrets at rest (as in deploy/local/start). */
    public static final String WEBHOOK_LOCAL_DEV_ENCRYPTION_KEY = "Y3J5cHRvcGF5LUxPQ0FMLURFVi1PTkxZLXdlYmhvb2s=";

    /** Where the system tests' SMTP server listens (SubscriptionBillingIT). */
    public static final int SMTP_PORT = 13026;

    /**
     * Extra environment per service. webhook-service: the retry schedule of docs/decisions.md §7 scaled down (an attempt,
     * then retries after 1 s, 2 s, ...; the 10 s request timeout stays), and a lease just above that timeout so
     * deliveries claimed by a killed instance are taken over quickly; signing secrets sealed with the LOCAL
     * DEVELOPMENT key; the tests' receivers on loopback, which the address policy opens only through this explicit
     * allow list (docs/decisions.md §41, §42).
     */
    private static final Map<String, Map<String, String>> EXTRA_ENV = Map.of(
            "webhook", Map.of(
                    "CRYPTOPAY_WEBHOOKS_RETRY_SCHEDULE", "1s,2s,2s,2s,2s,2s,2s",
                    "CRYPTOPAY_WEBHOOKS_LEASE", "13s",
                    "WEBHOOK_SECRET_ENCRYPTION_KEY", WEBHOOK_LOCAL_DEV_ENCRYPTION_KEY,
                    "CRYPTOPAY_WEBHOOKS_ALLOWED_TARGETS", "127.0.0.0/8,::1"),
            // subscription-service: the billing job every second, and the sandbox-only clock control the
            // subscription system tests move time with (the dunning schedule keeps its default 1, 3, 7 days);
            // e-mails go to the SMTP server SubscriptionBillingIT starts on SMTP_PORT (a refused one is retried
            // every 2 s while no test listens).
            "subscription", Map.of(
                    "CRYPTOPAY_SUBSCRIPTIONS_BILLING_JOB_INTERVAL", "1s",
                    "CRYPTOPAY_SUBSCRIPTIONS_CLOCK_CONTROL", "true",
                    "CRYPTOPAY_SUBSCRIPTIONS_MAIL_RETRY_AFTER", "2s",
                    "SMTP_PORT", String.valueOf(SMTP_PORT)),
            // transaction-service: the LOCAL DEVELOPMENT key of KYC documents at rest (docs/decisions.md §46); the
            // KYC restore's code e-mails go to the same SMTP server (KycRestoreIT, docs/decisions.md §64)
            "transaction", Map.of("KYC_DOCUMENT_ENCRYPTION_KEY", LOCAL_DEV_KYC_DOCUMENT_KEY,
                    "SMTP_PORT", String.valueOf(SMTP_PORT)));

    /** The test EVM node deploy/local/up --test starts (anvil, chain id 11155111, the test token deployed first). */
    public static final String ANVIL = System.getProperty("test.anvil.url", "http://127.0.0.1:18545");
    /**
     * The refund treasury on the test node: the private key of anvil's account 0 of the public test mnemonic
     * ("test test … junk"), a well-known local development key that holds test ETH and the test token.
     */
    public static final String TREASURY_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    /** Where the test token lands: the first contract account 0 of the test mnemonic deploys. */
    public static final String TEST_TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

    /**
     * Extra system properties per service. transaction-service watches {@code ethereum} on the test anvil node (the
     * other networks stay on the sandbox chain), with the test token as the network's USDC.
     */
    private static final Map<String, List<String>> EXTRA_PROPERTIES = Map.of(
            "transaction", List.of(
                    "-Dcryptopay.transaction.chains.ethereum.rpc-url=" + ANVIL,
                    "-Dcryptopay.transaction.token-contracts.sandbox.ethereum.USDC=" + TEST_TOKEN,
                    "-Dcryptopay.transaction.refunds.treasury.ethereum.private-key=" + TREASURY_KEY));

    private static Suite running;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final Path root;

    private Suite(Path root) {
        this.root = root;
    }

    /** Starts the suite the first time it is asked for and keeps it until the test JVM exits. */
    public static synchronized Suite get() {
        if (running == null) {
            Suite suite = new Suite(repoRoot());
            Runtime.getRuntime().addShutdownHook(new Thread(suite::stop));
            suite.start();
            running = suite;
        }
        return running;
    }

    /**
     * The set-up of a test class that calls the gateway: the suite started ({@link #get()}), REST Assured pointed at
     * the gateway and logging a request and its answer when an assertion on them fails.
     */
    public static Suite throughGateway() {
        Suite suite = get();
        RestAssured.baseURI = gatewayUrl();
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
        return suite;
    }

    public static String gatewayUrl() {
        return "http://127.0.0.1:" + GATEWAY_PORT;
    }

    public static int port(String service) {
        return SERVICES.get(service);
    }

    /** Where a service on {@code port} serves /q/health and /q/metrics: its HTTP port + 100. */
    public static int managementPort(int port) {
        return port + 100;
    }

    /** The status of {@code service}'s liveness check (/q/health/live on its management port). */
    public static int liveness(String service) throws IOException, InterruptedException {
        URI live = URI.create("http://127.0.0.1:" + managementPort(port(service)) + "/q/health/live");
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(live).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /**
     * The sum of the samples of {@code series} (a Prometheus line name such as
     * {@code http_server_requests_seconds_count}) on {@code service}'s /q/metrics whose labels include every one of
     * {@code labels} ({@code name="value"}); 0 when there is none.
     */
    public static double metricSum(String service, String series, String... labels) {
        String metrics = RestAssured.given().baseUri("http://127.0.0.1:" + managementPort(port(service)))
                .get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith(series + "{"))
                .filter(l -> Arrays.stream(labels).allMatch(l::contains))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    public static String jdbcUrl(String service) {
        return "jdbc:postgresql://127.0.0.1:5432/" + service + "_it";
    }

    public Path root() {
        return root;
    }

    /** The log of the service or replica the suite started as {@code name} (stdout and stderr, appended). */
    public Path log(String name) {
        return root.resolve("system-tests/target/suite-logs/" + name + ".log");
    }

    /** The lines appended to {@code log} since it was {@code offset} bytes long (its size read before an action). */
    public static List<String> linesSince(Path log, long offset) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            byte[] bytes = new byte[(int) Math.max(0, file.length() - offset)];
            file.seek(Math.min(offset, file.length()));
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh operator token from the project's own script. */
    public String operatorToken() {
        try {
            Process process = new ProcessBuilder(root.resolve("deploy/local/operator-token").toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String token = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (process.waitFor() != 0 || token.isEmpty()) {
                throw new IllegalStateException("deploy/local/operator-token failed");
            }
            return token;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops one service (as a crash or a deploy would) and starts it again on the same port and database. */
    public void restart(String service) {
        stopProcess(service);
        launch(service);
        awaitReady(service, Duration.ofSeconds(90));
    }

    /**
     * Kills one service at once (SIGKILL, as a crash or an OOM kill would): no shutdown hooks, nothing flushed.
     * Start it again with {@link #startService}.
     */
    public void kill(String service) {
        Process process = processes.remove(service);
        if (process == null) {
            return;
        }
        try {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public void stopService(String service) {
        stopProcess(service);
    }

    public void startService(String service) {
        launch(service);
        awaitReady(service, Duration.ofSeconds(90));
    }

    private void start() {
        Instant begin = Instant.now();
        SERVICES.keySet().forEach(this::launch);
        SERVICES.keySet().forEach(s -> awaitReady(s, Duration.ofSeconds(120)));
        System.out.printf("[suite] six services ready in %d ms%n", Duration.between(begin, Instant.now()).toMillis());
    }

    /**
     * Starts a second instance of {@code service} beside the suite's, on {@code port} with the same database, broker
     * and settings (as a replica in production would run); answers once it is ready. Stop it with
     * {@code stopService(name)}.
     */
    public void startReplica(String service, String name, int port) {
        launch(service, name, port);
        awaitReady(name, port, Duration.ofSeconds(90));
    }

    /**
     * Starts several more instances of {@code service} at once (names to ports), each with the suite's settings plus
     * {@code env} (e.g. another DB_URL), and answers once all are ready: replicas of a new version starting together.
     * Stop each with {@code stopService(name)}.
     */
    public void startReplicas(String service, Map<String, Integer> instances, Map<String, String> env) {
        instances.forEach((name, port) -> launch(service, name, port, env));
        instances.forEach((name, port) -> awaitReady(name, port, Duration.ofSeconds(120)));
    }

    private void launch(String service) {
        launch(service, service, SERVICES.get(service));
    }

    private void launch(String service, String name, int port) {
        launch(service, name, port, Map.of());
    }

    private void launch(String service, String name, int port, Map<String, String> extraEnv) {
        Path jar = root.resolve(service + "-service/target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build the services first (mvn verify builds them)");
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xms64m", "-Xmx256m", "-XX:TieredStopAtLevel=1"));
        command.addAll(EXTRA_PROPERTIES.getOrDefault(service, List.of()));
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        Path keys = root.resolve("deploy/local/keys");
        env.put("PORT", String.valueOf(port));
        // Health and metrics on the management port (HTTP port + 100); everything on loopback; the sandbox named
        // explicitly (a packaged service refuses to start without CRYPTOPAY_ENVIRONMENT).
        env.put("MANAGEMENT_PORT", String.valueOf(managementPort(port)));
        env.put("HTTP_HOST", "127.0.0.1");
        env.put("MANAGEMENT_HOST", "127.0.0.1");
        env.put("CRYPTOPAY_ENVIRONMENT", "sandbox");
        env.put("DB_URL", jdbcUrl(service));
        env.put("KAFKA_BOOTSTRAP_SERVERS", KAFKA);
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", keys.resolve("local-dev-internal-public.pem").toString());
        env.put("INTERNAL_JWT_PRIVATE_KEY_LOCATION", keys.resolve("local-dev-internal-private.pem").toString());
        env.put("OPERATOR_JWT_PUBLIC_KEY_LOCATION", keys.resolve("local-dev-operator-public.pem").toString());
        SERVICES.forEach((other, otherPort) -> env.put(other.toUpperCase() + "_SERVICE_URL",
                "http://127.0.0.1:" + otherPort));
        env.putAll(EXTRA_ENV.getOrDefault(service, Map.of()));
        env.putAll(extraEnv);
        try {
            Path log = log(name);
            Files.createDirectories(log.getParent());
            builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            processes.put(name, builder.start());
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + service, e);
        }
    }

    private void awaitReady(String service, Duration timeout) {
        awaitReady(service, SERVICES.get(service), timeout);
    }

    private void awaitReady(String service, int port, Duration timeout) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        URI ready = URI.create("http://127.0.0.1:" + managementPort(port) + "/q/health/ready");
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            Process process = processes.get(service);
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException(service + " exited with " + process.exitValue()
                        + "; see system-tests/target/suite-logs/" + service + ".log");
            }
            try {
                HttpResponse<Void> response = client.send(HttpRequest.newBuilder(ready).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(250);
        }
        throw new IllegalStateException(service + " not ready after " + timeout
                + "; see system-tests/target/suite-logs/" + service + ".log");
    }

    private void stopProcess(String service) {
        Process process = processes.remove(service);
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops every service at once: all are asked to stop first and then waited for (15 s in all, then killed), so
     * the test JVM's shutdown stays well inside the 30 s Surefire allows it; stopping them one after another could
     * exceed that and leave the last ones running, holding their ports for the next run.
     */
    private void stop() {
        List<Process> all = new ArrayList<>(processes.values());
        processes.clear();
        all.forEach(Process::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        for (Process process : all) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                if (!process.waitFor(left, TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path repoRoot() {
        String configured = System.getProperty("repo.root");
        Path start = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath();
        for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("deploy/local/lib.sh")) && Files.exists(dir.resolve("mvnw"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository root above " + start);
    }
}
