package dev.cryptopay.webhook.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages depend one way (issue 11): rest → service → domain. Neither the service layer nor the domain
 * imports the REST layer, and the domain imports no other layer.
 */
class PackageDependenciesTest {

    private static final Path ROOT = Path.of("src/main/java/dev/cryptopay/webhook");

    private static List<String> offending(String pkg, String... forbidden) throws IOException {
        try (Stream<Path> files = Files.walk(ROOT.resolve(pkg))) {
            return files.filter(f -> f.toString().endsWith(".java")).flatMap(f -> {
                try {
                    return Files.readAllLines(f).stream().filter(line -> line.startsWith("import "))
                            .filter(line -> Stream.of(forbidden).anyMatch(line::contains))
                            .map(line -> f.getFileName() + ": " + line);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        }
    }

    @Test
    void theServiceLayerDoesNotReachUpIntoRestOrDownIntoDelivery() throws IOException {
        assertEquals(List.of(), offending("service", "dev.cryptopay.webhook.rest", "dev.cryptopay.webhook.delivery",
                "dev.cryptopay.webhook.messaging"));
    }

    @Test
    void theDomainImportsNoOtherLayer() throws IOException {
        assertEquals(List.of(), offending("domain", "dev.cryptopay.webhook.rest", "dev.cryptopay.webhook.service",
                "dev.cryptopay.webhook.delivery", "dev.cryptopay.webhook.messaging"));
    }
}
