package dev.cryptopay.webhook.messaging;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.events.CloudEvent;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A CloudEvent from one of the payments topics, read so that its {@code data} survives byte-for-byte in meaning:
 * numbers are kept as exact decimals with their scale ({@code 10.10} stays {@code 10.10}), never binary floating
 * point. ({@link CloudEvent#parse} reads numbers as doubles, which is fine for its other users but not for money
 * that is passed on to merchants.)
 *
 * @param accountId the owning account: {@code data.accountID} (transactions, refunds) or {@code data.accountId}
 *                  (subscriptions), empty when neither is a UUID
 */
public record IncomingEvent(String id, String type, String createdAt, JsonNode data, Optional<UUID> accountId) {

    /** Event ids travel as the {@code webhook-id} header: keep them to characters that are safe there. */
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._:~-]{1,255}");

    static final ObjectMapper EXACT = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    /** Parses a record value; throws {@link IllegalArgumentException} when it is not a usable CloudEvent. */
    public static IncomingEvent parse(String value) {
        JsonNode root;
        try {
            root = EXACT.readTree(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        if (!CloudEvent.SPEC_VERSION.equals(root.path("specversion").asText(null))) {
            throw new IllegalArgumentException("specversion is not " + CloudEvent.SPEC_VERSION);
        }
        String id = root.path("id").asText(null);
        String type = root.path("type").asText(null);
        if (id == null || !SAFE_ID.matcher(id).matches()) {
            throw new IllegalArgumentException("missing or unusable id");
        }
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("missing type");
        }
        JsonNode data = withoutPersonalData(root.path("data"));
        return new IncomingEvent(id, type, createdAt(root.path("time").asText(null)),
                data.isMissingNode() ? EXACT.nullNode() : data, account(data));
    }

    /**
     * The webhook body of docs/decisions.md §7: {@code id}, {@code type}, {@code createdAt}, {@code data}, in this order,
     * as sent on every attempt (the signature covers these exact bytes).
     */
    public String webhookBody() {
        ObjectNode body = EXACT.createObjectNode();
        body.put("id", id);
        body.put("type", type);
        body.put("createdAt", createdAt);
        body.set("data", data);
        try {
            return EXACT.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Customer details never reach a webhook nor this service's payload table (docs/decisions.md §7, §43): a
     * {@code compliance.kycDetails} that a producer still fills is replaced by {@code null}, whatever the event type.
     * transaction-service already publishes it {@code null}; this keeps it so for any producer.
     */
    static JsonNode withoutPersonalData(JsonNode data) {
        if (data.path("compliance") instanceof ObjectNode compliance && compliance.has("kycDetails")
                && !compliance.get("kycDetails").isNull()) {
            compliance.putNull("kycDetails");
        }
        return data;
    }

    /** The event's own time when it is RFC 3339 (as CloudEvents requires), else the time it arrived here. */
    private static String createdAt(String time) {
        if (time != null) {
            try {
                return OffsetDateTime.parse(time).toInstant().toString();
            } catch (DateTimeParseException e) {
                // fall through
            }
        }
        return Instant.now().truncatedTo(ChronoUnit.MICROS).toString();
    }

    private static Optional<UUID> account(JsonNode data) {
        for (String field : new String[] { "accountID", "accountId" }) {
            String text = data.path(field).asText("");
            if (!text.isBlank()) {
                try {
                    return Optional.of(UUID.fromString(text.strip()));
                } catch (IllegalArgumentException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
