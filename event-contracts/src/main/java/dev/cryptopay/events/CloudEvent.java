package dev.cryptopay.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A CloudEvents 1.0 event in structured JSON mode, as written on every topic (docs/decisions.md §8).
 *
 * @param id              unique event id; consumers deduplicate on it
 * @param source          the producing service, e.g. {@code /merchant-service}
 * @param type            one of {@link EventTypes}
 * @param specversion     always {@code 1.0}
 * @param time            RFC 3339 time the state change committed
 * @param subject         the aggregate id, also the Kafka record key
 * @param datacontenttype always {@code application/json}
 * @param data            the aggregate's full state after the change
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CloudEvent(String id, String source, String type, String specversion, String time, String subject,
        String datacontenttype, JsonNode data) {

    public static final String SPEC_VERSION = "1.0";
    public static final String JSON = "application/json";

    /** Decimals stay exact both ways: read as BigDecimal, written plainly (never 1E+2). */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    public CloudEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
    }

    /** A new event with a time-ordered id ({@link TimeOrderedIds}), stamped now to the microsecond. */
    public static CloudEvent of(String source, String type, String subject, JsonNode data) {
        return new CloudEvent(TimeOrderedIds.next().toString(), source, type, SPEC_VERSION,
                Instant.now().truncatedTo(ChronoUnit.MICROS).toString(), subject, JSON, data);
    }

    /** Parses a record value; throws {@link IllegalArgumentException} when it is not a CloudEvent. */
    public static CloudEvent parse(String json) {
        try {
            CloudEvent event = MAPPER.readValue(json, CloudEvent.class);
            if (!SPEC_VERSION.equals(event.specversion())) {
                throw new IllegalArgumentException("unsupported specversion " + event.specversion());
            }
            return event;
        } catch (JsonProcessingException | NullPointerException e) {
            throw new IllegalArgumentException("not a CloudEvent: " + e.getMessage(), e);
        }
    }

    public String toJson() {
        try {
            return MAPPER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
