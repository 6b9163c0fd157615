package dev.cryptopay.gateway.apidoc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.cryptopay.gateway.routing.AuthMode;
import dev.cryptopay.gateway.routing.Route;
import dev.cryptopay.gateway.routing.RouteTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The public API description (docs/openapi.yaml) and the gateway's route table describe the same API: every routed
 * method and path is documented, nothing is documented that the gateway does not route, and each operation names
 * the credentials its route's {@link AuthMode} asks for. To add a route: add it to {@link RouteTable} and the
 * operation to docs/openapi.yaml with the same path template (the same {@code {parameter}} names).
 */
class OpenApiDocumentTest {

    private static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "patch", "head",
            "options", "trace");
    private static final Path DOCUMENT = Path.of("..", "docs", "openapi.yaml");

    private final JsonNode document = read();
    private final RouteTable table = new RouteTable();

    @Test
    void documentsExactlyTheRoutesOfTheGateway() {
        Set<String> routed = new TreeSet<>();
        for (Route route : table.routes()) {
            route.methods().forEach(method -> routed.add(method + " " + route.template()));
        }
        PublicApiDocument.PATHS.forEach(path -> routed.add("GET " + path));
        Set<String> documented = operations().keySet();

        Set<String> undocumented = new TreeSet<>(routed);
        undocumented.removeAll(documented);
        Set<String> unrouted = new TreeSet<>(documented);
        unrouted.removeAll(routed);
        assertTrue(undocumented.isEmpty(), "routed by RouteTable but missing from docs/openapi.yaml: " + undocumented);
        assertTrue(unrouted.isEmpty(), "in docs/openapi.yaml but not routed by the gateway: " + unrouted);
    }

    @Test
    void eachOperationNamesTheCredentialsOfItsRoute() {
        Map<String, Set<Set<String>>> wrong = new TreeMap<>();
        for (Route route : table.routes()) {
            Set<Set<String>> expected = credentials(route.auth());
            for (String method : route.methods()) {
                String operation = method + " " + route.template();
                Set<Set<String>> declared = operations().get(operation);
                if (declared != null && !declared.equals(expected)) {
                    wrong.put(operation + " (" + route.auth() + ", expected " + expected + ")", declared);
                }
            }
        }
        PublicApiDocument.PATHS.forEach(path -> {
            Set<Set<String>> declared = operations().get("GET " + path);
            if (declared != null && !declared.equals(Set.of())) {
                wrong.put("GET " + path + " (public)", declared);
            }
        });
        assertEquals(Map.of(), wrong, "operations whose security differs from the gateway's auth mode");
    }

    @Test
    void theDocumentNamesEveryAuthModesScheme() {
        Set<String> schemes = new HashSet<>();
        document.path("components").path("securitySchemes").fieldNames().forEachRemaining(schemes::add);
        assertEquals(Set.of("ApiKey", "MerchantId", "PublishableKey", "AccountId", "OperatorToken"), schemes);
        assertEquals("X-Api-Key", document.at("/components/securitySchemes/ApiKey/name").asText());
        assertEquals("X-MID", document.at("/components/securitySchemes/MerchantId/name").asText());
        assertEquals("X-Publishable-Key", document.at("/components/securitySchemes/PublishableKey/name").asText());
        assertEquals("X-Account-Id", document.at("/components/securitySchemes/AccountId/name").asText());
        assertEquals("bearer", document.at("/components/securitySchemes/OperatorToken/scheme").asText());
    }

    /** The security requirements (alternatives, each a set of schemes that go together) of each auth mode. */
    static Set<Set<String>> credentials(AuthMode mode) {
        return switch (mode) {
            case PUBLIC -> Set.of();
            case OPERATOR -> Set.of(Set.of("OperatorToken"));
            case API_KEY -> Set.of(Set.of("ApiKey"));
            case API_KEY_AND_MID -> Set.of(Set.of("ApiKey", "MerchantId"));
            case PUBLISHABLE -> Set.of(Set.of("PublishableKey"));
            case PUBLISHABLE_OR_API_KEY_AND_MID -> Set.of(Set.of("PublishableKey"), Set.of("ApiKey", "MerchantId"));
            case API_KEY_AND_ACCOUNT_HEADER -> Set.of(Set.of("ApiKey", "AccountId"));
        };
    }

    /** "METHOD /path" → the operation's security (its own, else the document's default). */
    private Map<String, Set<Set<String>>> operations() {
        Map<String, Set<Set<String>>> operations = new TreeMap<>();
        Set<Set<String>> fallback = security(document.path("security"));
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (HTTP_METHODS.contains(op.getKey())) {
                JsonNode security = op.getValue().get("security");
                operations.put(op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey(),
                        security == null ? fallback : security(security));
            }
        }));
        return operations;
    }

    private static Set<Set<String>> security(JsonNode requirements) {
        return StreamSupport.stream(requirements.spliterator(), false)
                .map(requirement -> {
                    Set<String> schemes = new TreeSet<>();
                    requirement.fieldNames().forEachRemaining(schemes::add);
                    return Set.copyOf(schemes);
                })
                .filter(schemes -> !schemes.isEmpty())
                .collect(Collectors.toSet());
    }

    private static JsonNode read() {
        try {
            return new YAMLMapper().readTree(DOCUMENT.toFile());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + DOCUMENT.toAbsolutePath(), e);
        }
    }
}
