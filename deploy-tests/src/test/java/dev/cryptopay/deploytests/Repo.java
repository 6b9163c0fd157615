package dev.cryptopay.deploytests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The repository root and running the command-line tools the deploy tests check with (kubectl, docker-compose). */
final class Repo {

    /** The six services with their HTTP ports; the management port is HTTP + 100 (docs/decisions.md). */
    static final Map<String, Integer> SERVICES = Map.of(
            "gateway-service", 8080, "merchant-service", 8081, "transaction-service", 8082,
            "subscription-service", 8083, "webhook-service", 8084, "reporting-service", 8085);

    private Repo() {
    }

    static Path root() {
        String configured = System.getProperty("repo.root");
        Path start = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath();
        for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("deploy/k8s/base/kustomization.yaml")) && Files.exists(dir.resolve("mvnw"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository root above " + start);
    }

    record Result(int exitCode, String stdout, String stderr) {
    }

    /** Runs a command in the repository root and answers its exit code and output (bounded: 120 s). */
    static Result run(List<String> command) {
        return run(command, Map.of());
    }

    static Result run(List<String> command, Map<String, String> env) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(root().toFile());
            builder.environment().putAll(env);
            Path out = Files.createTempFile("deploy-tests", ".out");
            Path err = Files.createTempFile("deploy-tests", ".err");
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
            Process process = builder.start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in 120 s");
            }
            Result result = new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return result;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** True when {@code tool} is an executable on the PATH. */
    static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    static List<String> command(String... parts) {
        return new ArrayList<>(List.of(parts));
    }
}
