package dev.cryptopay.webhook.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryptopay.events.Topics;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes CloudEvents on the test broker as the producing services will. transaction-service and
 * subscription-service do not publish yet, so the tests write the records themselves.
 */
public final class Events implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final KafkaProducer<String, String> producer;

    public Events() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, System.getProperty("test.kafka.bootstrap", "127.0.0.1:19092"));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    /** A CloudEvent JSON string. */
    public static String cloudEvent(String id, String type, String subject, String dataJson) {
        return "{\"id\":\"" + id + "\",\"source\":\"/transaction-service\",\"type\":\"" + type
                + "\",\"specversion\":\"1.0\",\"time\":\"" + Instant.now().truncatedTo(ChronoUnit.MICROS)
                + "\",\"subject\":\"" + subject + "\",\"datacontenttype\":\"application/json\",\"data\":" + dataJson
                + "}";
    }

    /** Transaction-shaped data (a subset of Get Transaction) with exact decimal amounts. */
    public static String transactionData(UUID account, String transactionId, Map<String, Object> extra) {
        ObjectNode data = JSON.createObjectNode();
        data.put("transactionID", transactionId);
        data.put("accountID", account.toString());
        data.put("merchantID", UUID.randomUUID().toString());
        data.put("status", 1);
        data.put("paymentStatus", 1);
        ObjectNode amounts = data.putObject("amounts");
        amounts.put("currency", "EUR");
        amounts.put("totalLocal", new java.math.BigDecimal("10.10"));
        amounts.put("totalUSD", new java.math.BigDecimal("10.9787000000000000001"));
        extra.forEach((k, v) -> data.set(k, JSON.valueToTree(v)));
        return data.toString();
    }

    /** Publishes a transaction event for {@code account}; returns the event id. */
    public String transaction(UUID account, String type) {
        String id = UUID.randomUUID().toString();
        String tx = UUID.randomUUID().toString();
        send(Topics.TRANSACTIONS, tx, cloudEvent(id, type, tx, transactionData(account, tx, Map.of())));
        return id;
    }

    public void send(String topic, String key, String value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot publish on " + topic, e.getCause());
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
