package dev.cryptopay.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CloudEventTest {

    @Test
    void roundTripsThroughJson() throws Exception {
        var data = new ObjectMapper().readTree("{\"transactionID\":\"t-1\",\"amount\":\"10.50\"}");
        CloudEvent event = CloudEvent.of("/transaction-service", EventTypes.TRANSACTION_CREATED, "t-1", data);

        CloudEvent back = CloudEvent.parse(event.toJson());

        assertEquals(event, back);
        assertEquals("1.0", back.specversion());
        assertEquals("10.50", back.data().get("amount").asText());
    }

    @Test
    void keepsDecimalsExactAndPlain() {
        CloudEvent event = CloudEvent.parse("{\"id\":\"1\",\"type\":\"t\",\"specversion\":\"1.0\","
                + "\"data\":{\"a\":100,\"b\":0.10,\"c\":12345678901234567890.123456789012345678}}");
        assertEquals(new java.math.BigDecimal("0.10"), event.data().get("b").decimalValue());
        String json = event.toJson();
        assertEquals(true, json.contains("\"a\":100,"), json);
        assertEquals(true, json.contains("\"b\":0.10"), json);
        assertEquals(true, json.contains("12345678901234567890.123456789012345678"), json);
    }

    record Leg(String address, BigDecimal amount, Integer confirmations) {
    }

    record View(String transactionId, BigDecimal amount, BigDecimal fee, BigDecimal large, OffsetDateTime created,
            String note, String absent, boolean paid, long version, List<Leg> legs, Map<String, Object> metadata) {
    }

    /** The outbox writes data straight into the envelope: the text must be what the tree used to give, byte for byte. */
    @Test
    void writesDataStraightAsTheTreeWould() {
        ObjectMapper services = JsonMapper.builder() // as JsonSettings sets up every service's mapper
                .addModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .enable(com.fasterxml.jackson.core.JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
                .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
                .build();
        View data = new View("t-1", new BigDecimal("100"), new BigDecimal("0.10"), new BigDecimal("1E+3"),
                OffsetDateTime.parse("2026-11-30T01:02:03.456789Z"), "a \"quoted\" note, ü and \u2028", null, true,
                7L, List.of(new Leg("0xAbC", new BigDecimal("12.000000"), null), new Leg("tb1q", BigDecimal.ONE, 3)),
                Map.of("order", "A-1"));
        CloudEvent header = CloudEvent.of("/transaction-service", EventTypes.TRANSACTION_CREATED, "t-1", null);
        CloudEvent viaTree = new CloudEvent(header.id(), header.source(), header.type(), header.specversion(),
                header.time(), header.subject(), header.datacontenttype(), services.valueToTree(data));

        String straight = CloudEvent.toJson(header, services, data);

        assertEquals(viaTree.toJson(), straight);
        assertEquals(true, straight.contains("\"large\":1000,"), straight);
        CloudEvent noData = CloudEvent.of("/x", "t", null, null);
        assertEquals(noData.toJson(), CloudEvent.toJson(noData, services, null));
    }

    @Test
    void refusesWhatIsNotACloudEvent() {
        assertThrows(IllegalArgumentException.class, () -> CloudEvent.parse("{\"hello\":1}"));
        assertThrows(IllegalArgumentException.class, () -> CloudEvent.parse("not json"));
        assertThrows(IllegalArgumentException.class,
                () -> CloudEvent.parse("{\"id\":\"1\",\"type\":\"x\",\"specversion\":\"0.3\"}"));
    }
}
