package dev.cryptopay.support.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * For the tests of a service whose build strips a signed dependency's signature files
 * ({@code quarkus.class-loading.removed-resources} in its application.properties): the files to strip are named one
 * by one, so a new release of the dependency that names them otherwise would leave the packaged jar signed without a
 * word. These compare the names configured with the ones in the jar the tests load.
 */
public final class SignatureFiles {

    /** What makes a jar signed (java.util.jar's rule): a signature file or signature block under META-INF. */
    private static final Pattern SIGNATURE = Pattern.compile("META-INF/[^/]+\\.(SF|DSA|RSA|EC)");

    private SignatureFiles() {
    }

    /**
     * Asserts that the module's application.properties removes exactly the signature files of the jar the class was
     * loaded from (Maven's copy, which is signed), and that this jar is the artifact named.
     */
    public static void assertBuildRemovesAll(Class<?> loadedFromJar, String groupArtifact) {
        Path jar = jarOf(loadedFromJar);
        String artifact = groupArtifact.substring(groupArtifact.indexOf(':') + 1);
        assertTrue(jar.getFileName().toString().startsWith(artifact + "-"), "not the artifact configured: " + jar);
        Set<String> signatureFiles = in(jar);
        assertFalse(signatureFiles.isEmpty(), "the jar from Maven Central is signed: " + jar);
        assertEquals(signatureFiles, removedFrom(groupArtifact));
    }

    /** The jar a class was loaded from. */
    private static Path jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The signature files of a jar. */
    private static Set<String> in(Path jar) {
        try (JarFile file = new JarFile(jar.toFile(), false)) {
            return file.stream().map(JarEntry::getName).filter(name -> SIGNATURE.matcher(name).matches())
                    .collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The resources the module's application.properties has the build remove from {@code groupId:artifactId}. */
    private static Set<String> removedFrom(String groupArtifact) {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String value = properties.getProperty("quarkus.class-loading.removed-resources.\"" + groupArtifact + "\"", "");
        return Arrays.stream(value.split(",")).map(String::trim).filter(name -> !name.isEmpty())
                .collect(Collectors.toSet());
    }
}
