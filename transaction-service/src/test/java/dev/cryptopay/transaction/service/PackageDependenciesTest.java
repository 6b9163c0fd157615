package dev.cryptopay.transaction.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of transaction-service depend one way (issue 11): no package imports another that imports it back,
 * directly or round a longer loop, and the domain imports no layer above it. Read from the sources' import lines,
 * so a new cycle fails here before anyone has to untangle it.
 */
class PackageDependenciesTest {

    private static final Path ROOT = Path.of("src/main/java/dev/cryptopay/transaction");
    private static final Pattern IMPORT = Pattern.compile("^import dev\\.cryptopay\\.transaction\\.(\\w+)\\.");

    /** package → the packages of this service it imports. */
    static Map<String, Set<String>> graph() throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> packages = Files.list(ROOT)) {
            for (Path pkg : packages.filter(Files::isDirectory).toList()) {
                Set<String> imports = new TreeSet<>();
                try (Stream<Path> files = Files.walk(pkg)) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                        try {
                            for (String line : Files.readAllLines(f)) {
                                Matcher m = IMPORT.matcher(line);
                                if (m.find() && !m.group(1).equals(pkg.getFileName().toString())) {
                                    imports.add(m.group(1));
                                }
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                }
                graph.put(pkg.getFileName().toString(), imports);
            }
        }
        return graph;
    }

    /** Every loop of the graph, each as the path that closes it (empty when the dependencies point one way). */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        List<List<String>> found = new ArrayList<>();
        for (String start : graph.keySet()) {
            walk(graph, start, new ArrayList<>(List.of(start)), found);
        }
        return found;
    }

    private static void walk(Map<String, Set<String>> graph, String at, List<String> path, List<List<String>> found) {
        for (String next : graph.getOrDefault(at, Set.of())) {
            if (next.equals(path.get(0))) {
                List<String> loop = new ArrayList<>(path);
                loop.add(next);
                found.add(loop);
            } else if (!path.contains(next) && next.compareTo(path.get(0)) > 0) {
                path.add(next);
                walk(graph, next, path, found);
                path.remove(path.size() - 1);
            }
        }
    }

    @Test
    void noPackageDependsOnItselfRoundALoop() throws IOException {
        Map<String, Set<String>> graph = graph();
        assertTrue(graph.containsKey("service") && graph.containsKey("detection"), graph.toString());
        assertEquals(List.of(), cycles(graph), graph.toString());
    }

    @Test
    void theDomainImportsNoLayerAboveIt() throws IOException {
        Set<String> domain = graph().get("domain");
        assertEquals(Set.of(), domain.stream().filter(p -> Set.of("rest", "service", "detection", "messaging",
                "payout", "screening", "restore", "chain").contains(p)).collect(java.util.stream.Collectors.toSet()));
    }

    /** The loop finder itself: a loop of three is found, a one-way chain is not. */
    @Test
    void theLoopFinderFindsALongerLoop() {
        assertEquals(List.of(List.of("a", "b", "c", "a")),
                cycles(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"))));
        assertEquals(List.of(), cycles(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of())));
    }
}
