package dev.cryptopay.support.idempotency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Set;

/**
 * What an Idempotency-Key record may keep of an answer (docs/decisions.md §28): everything but the secrets a creating
 * call issues, which the client sees once, in the first answer. Fields with these names, at any depth of a JSON body,
 * are stored (and so replayed) as {@code null}: an API key and its private key ({@code generatedKey},
 * {@code privateKey}, also inside {@code apiKey} of a new account) and a webhook signing secret ({@code signingKey}).
 * A body that is not JSON is stored as it is (no creating endpoint issues a secret in another format). Used for the
 * gateway's records of every creating POST and for the services' own ({@link IdempotentCreations}).
 */
public final class IssuedSecrets {

    static final Set<String> FIELDS = Set.of("generatedKey", "privateKey", "signingKey");

    private IssuedSecrets() {
    }

    public static byte[] withoutSecrets(ObjectMapper mapper, String contentType, byte[] body) {
        if (body == null || body.length == 0 || contentType == null || !contentType.toLowerCase().contains("json")) {
            return body;
        }
        try {
            JsonNode tree = mapper.readTree(body);
            return scrub(tree) ? mapper.writeValueAsBytes(tree) : body;
        } catch (IOException e) {
            // Not JSON after all: nothing of the above can be in it as a field.
            return body;
        }
    }

    /** The answer as JSON with its secrets {@code null}: what a service's own record keeps. */
    public static JsonNode withoutSecrets(ObjectMapper mapper, Object answer) {
        JsonNode tree = mapper.valueToTree(answer);
        scrub(tree);
        return tree;
    }

    /** Nulls the secret fields in place; true when there was one. */
    private static boolean scrub(JsonNode node) {
        boolean changed = false;
        if (node instanceof ObjectNode object) {
            for (String name : FIELDS) {
                if (object.has(name) && !object.get(name).isNull()) {
                    object.putNull(name);
                    changed = true;
                }
            }
            for (JsonNode value : object) {
                changed |= scrub(value);
            }
        } else if (node instanceof ArrayNode array) {
            for (JsonNode element : array) {
                changed |= scrub(element);
            }
        }
        return changed;
    }
}
