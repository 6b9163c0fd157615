package dev.cryptopay.reporting.projection;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.UUID;

/** Tolerant readers of event data: an absent or JSON-null field is {@code null}; decimals stay exact. */
final class Json {

    private Json() {
    }

    static JsonNode at(JsonNode node, String field) {
        if (node == null) {
            return null;
        }
        JsonNode value = node.get(field);
        return value == null || value.isNull() || value.isMissingNode() ? null : value;
    }

    static String text(JsonNode node, String field) {
        JsonNode value = at(node, field);
        return value == null ? null : value.asText();
    }

    static BigDecimal decimal(JsonNode node, String field) {
        JsonNode value = at(node, field);
        if (value == null) {
            return null;
        }
        if (value.isNumber()) {
            return value.decimalValue();
        }
        try {
            return new BigDecimal(value.asText().strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static Integer integer(JsonNode node, String field) {
        JsonNode value = at(node, field);
        return value == null || !value.canConvertToInt() ? null : value.asInt();
    }

    static Long whole(JsonNode node, String field) {
        JsonNode value = at(node, field);
        return value == null || !value.canConvertToLong() ? null : value.asLong();
    }

    static Boolean bool(JsonNode node, String field) {
        JsonNode value = at(node, field);
        return value == null || !value.isBoolean() ? null : value.asBoolean();
    }

    static Instant instant(JsonNode node, String field) {
        return instant(text(node, field));
    }

    static Instant instant(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static Timestamp timestamp(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    static UUID uuid(String text) {
        if (text == null) {
            return null;
        }
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
