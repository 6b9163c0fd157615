package dev.cryptopay.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
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

    @Test
    void refusesWhatIsNotACloudEvent() {
        assertThrows(IllegalArgumentException.class, () -> CloudEvent.parse("{\"hello\":1}"));
        assertThrows(IllegalArgumentException.class, () -> CloudEvent.parse("not json"));
        assertThrows(IllegalArgumentException.class,
                () -> CloudEvent.parse("{\"id\":\"1\",\"type\":\"x\",\"specversion\":\"0.3\"}"));
    }
}
