package dev.cryptopay.support.problem;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.time.temporal.Temporal;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The one translation of a JSON parse or binding failure into a 400 problem (docs/decisions.md §1), shared by the
 * services' {@link ProblemMappers} and the gateway's own body check, so the same body gets the same answer
 * wherever it is refused:
 * <ul>
 * <li>not JSON, more than one value ({@code {...} xyz}), {@code NaN}/{@code Infinity}, bytes that are not UTF-8:
 * {@code malformed_json};</li>
 * <li>a key twice in one object: {@code malformed_json} naming the field;</li>
 * <li>valid JSON of the wrong shape: {@code validation_failed} naming the field ({@code body} for the whole
 * document, e.g. an array where an object is expected).</li>
 * </ul>
 * Nothing of the exception (class names, source excerpts) reaches the client.
 */
public final class JsonProblems {

    private JsonProblems() {
    }

    public static Problem of(JsonProcessingException e) {
        // Binding wraps a parse failure met inside a field in a JsonMappingException: the parse failure decides.
        for (Throwable c = e.getCause(); c != null && c != e; c = c.getCause()) {
            if (c instanceof StreamReadException read) {
                return of(read);
            }
        }
        if (e instanceof InputCoercionException coercion) {
            return invalid(fieldOf(coercion).orElse("body"), "is out of range");
        }
        if (e instanceof StreamReadException read) {
            String reason = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
            if (reason.startsWith("Duplicate field")) {
                String field = fieldOf(read).orElse("body");
                return Problem.of(400, "malformed_json", "Malformed JSON",
                        "The request body names the field " + field + " more than once.",
                        List.of(new FieldError(field, "appears more than once")));
            }
            return malformed("The request body is not valid JSON (" + clean(reason) + ").");
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getOriginalMessage() != null
                && mismatch.getOriginalMessage().startsWith("Trailing token")) {
            return malformed("The request body must be exactly one JSON value; there is more after it.");
        }
        if (e instanceof JsonMappingException mapping) {
            String field = path(mapping);
            Class<?> target = mapping instanceof MismatchedInputException m ? m.getTargetType() : null;
            if (mapping instanceof UnrecognizedPropertyException) {
                return invalid(field == null ? "body" : field, "is not a field of this request");
            }
            if (field == null) {
                return invalid("body", target != null && isArray(target) ? "must be a JSON array"
                        : "must be a JSON object");
            }
            return invalid(field, message(mapping, target));
        }
        return malformed("The request body is not valid JSON.");
    }

    private static Problem malformed(String detail) {
        return Problem.of(400, "malformed_json", "Malformed JSON", detail, null);
    }

    private static Problem invalid(String field, String message) {
        return ApiException.validation(field, message).toProblem();
    }

    private static String message(JsonMappingException e, Class<?> target) {
        if (target == null) {
            return "has the wrong type or format";
        }
        if (target.isEnum()) {
            return "must be one of " + Arrays.stream(target.getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", "));
        }
        if (target == String.class || target == Character.class || target == char.class) {
            return "must be a string";
        }
        if (target == Boolean.class || target == boolean.class) {
            return "must be true or false";
        }
        if (Number.class.isAssignableFrom(target) || (target.isPrimitive() && target != boolean.class)) {
            boolean whole = target == Integer.class || target == int.class || target == Long.class
                    || target == long.class || target == Short.class || target == short.class
                    || target == java.math.BigInteger.class;
            return whole ? "must be a whole number" : "must be a number";
        }
        if (target == UUID.class) {
            return "must be a UUID";
        }
        if (Temporal.class.isAssignableFrom(target)) {
            return "must be an RFC 3339 timestamp or a YYYY-MM-DD date";
        }
        if (isArray(target)) {
            return "must be an array";
        }
        if (Map.class.isAssignableFrom(target) || !(e instanceof InvalidFormatException)) {
            return "must be an object";
        }
        return "has the wrong format";
    }

    private static boolean isArray(Class<?> type) {
        return type.isArray() || Collection.class.isAssignableFrom(type);
    }

    /** {@code amounts.totalLocal}, {@code payments[0].status}; null for the document itself. */
    static String path(JsonMappingException e) {
        if (e.getPath().isEmpty()) {
            return null;
        }
        String joined = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + Math.max(ref.getIndex(), 0) + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        return joined.isEmpty() ? null : joined;
    }

    /** Where the parser stood when it failed, as a field path. */
    private static java.util.Optional<String> fieldOf(StreamReadException e) {
        if (!(e.getProcessor() instanceof JsonParser parser)) {
            return java.util.Optional.empty();
        }
        Deque<String> parts = new ArrayDeque<>();
        for (JsonStreamContext c = parser.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject() && c.getCurrentName() != null) {
                parts.addFirst("." + c.getCurrentName());
            } else if (c.inArray()) {
                parts.addFirst("[" + Math.max(c.getCurrentIndex(), 0) + "]");
            }
        }
        String path = String.join("", parts);
        path = path.startsWith(".") ? path.substring(1) : path;
        return path.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(path);
    }

    /** The parser's own reason, without hints about parser features or source excerpts, at most 200 characters. */
    private static String clean(String reason) {
        String text = reason;
        for (String cut : List.of(": enable `", " (for Object starting at", "\n")) {
            int at = text.indexOf(cut);
            if (at >= 0) {
                text = text.substring(0, at);
            }
        }
        text = text.strip();
        if (text.isEmpty()) {
            return "unreadable";
        }
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }
}
