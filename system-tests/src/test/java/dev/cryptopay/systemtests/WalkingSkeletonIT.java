package dev.cryptopay.systemtests;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.events.Topics;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The walking skeleton across the six running services: lookups through the gateway to their owner, and one
 * event travelling merchant-service outbox → Kafka → gateway key store, applied once however often delivered.
 */
class WalkingSkeletonIT {

    private static Suite suite;

    @BeforeAll
    static void startSuite() {
        suite = Suite.throughGateway();
    }

    @Test
    void publicLookupsGoThroughTheGatewayToMerchantService() {
        given().when().get("/assets")
                .then().statusCode(200)
                .body("code", hasItems("BTC", "ETH", "USDC", "USDT"))
                .header("X-Request-Id", org.hamcrest.Matchers.notNullValue());
        given().when().get("/config/countries")
                .then().statusCode(200).body("$", hasSize(249));
        given().header("X-Request-Id", "it-lookup-1").when().get("/assets")
                .then().statusCode(200).header("X-Request-Id", equalTo("it-lookup-1"));
    }

    @Test
    void theGatewayAnswersUnknownPathsAndWrongMethodsItself() {
        given().when().get("/no/such/path")
                .then().statusCode(404).contentType("application/problem+json").body("code", equalTo("not_found"));
        given().when().delete("/assets")
                .then().statusCode(405).contentType("application/problem+json").header("Allow", "GET");
        given().when().get("/accounts/" + UUID.randomUUID() + "/keys")
                .then().statusCode(401).contentType("application/problem+json").body("code", equalTo("unauthorized"));
        given().header("Authorization", "Bearer not-a-jwt").contentType(ContentType.JSON).body("{}")
                .when().post("/operator/accounts")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void aKeyEventTravelsThroughTheOutboxAndKafkaAndIsAppliedOnce() throws Exception {
        // 1. merchant-service writes the account, its key and the key event in one transaction (outbox)
        JsonPath account = given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"name\":\"Skeleton Ltd\",\"email\":\"it@skeleton.example\"}")
                .when().post("/operator/accounts")
                .then().statusCode(201).extract().jsonPath();
        String accountId = account.getString("accountUUID");
        String adminKey = account.getString("apiKey.generatedKey");

        // 2. the relay publishes it, the gateway consumes it: the new key authenticates through the gateway
        awaitTrue(Duration.ofSeconds(20), () -> given().header("X-Api-Key", adminKey)
                .get("/accounts/" + accountId + "/keys").statusCode() == 200);

        // 3. a second key, then revoked: the gateway refuses it once the revocation event arrived
        String second = given().header("X-Api-Key", adminKey).contentType(ContentType.JSON)
                .body("{\"keyType\":\"api\",\"name\":\"temporary\"}")
                .when().post("/accounts/" + accountId + "/keys")
                .then().statusCode(201).extract().path("generatedKey");
        awaitTrue(Duration.ofSeconds(20), () -> given().header("X-Api-Key", second)
                .get("/accounts/" + accountId + "/keys").statusCode() == 200);
        String secondId = given().header("X-Api-Key", adminKey).get("/accounts/" + accountId + "/keys")
                .then().extract().jsonPath()
                .getString("keys.api.find { it.name == 'temporary' }.UUID");
        given().header("X-Api-Key", adminKey).when().delete("/accounts/" + accountId + "/keys/" + secondId)
                .then().statusCode(204);
        awaitTrue(Duration.ofSeconds(20), () -> given().header("X-Api-Key", second)
                .get("/accounts/" + accountId + "/keys").statusCode() == 401);

        // 4. the "created" event of the second key delivered twice more: applied once, the key stays revoked
        ConsumerRecord<String, String> created = readKeyEvents(secondId).get(0);
        CloudEvent createdEvent = CloudEvent.parse(created.value());
        assertEquals(1, createdEvent.data().get("version").asInt());
        long lastOffset = 0;
        try (KafkaProducer<String, String> producer = producer()) {
            for (int i = 0; i < 2; i++) {
                RecordMetadata sent = producer.send(new ProducerRecord<>(Topics.KEYS, created.key(), created.value()))
                        .get();
                lastOffset = sent.offset();
            }
        }
        awaitConsumed("gateway-views", new TopicPartition(Topics.KEYS, created.partition()), lastOffset + 1);

        given().header("X-Api-Key", second).get("/accounts/" + accountId + "/keys").then().statusCode(401);
        try (Connection db = DriverManager.getConnection(Suite.jdbcUrl("gateway"), "payments", "payments")) {
            assertEquals(1, count(db, "select count(*) from processed_event where event_id = ?", createdEvent.id()));
            Map<String, Object> row = one(db, "select status, version from gateway_key where key_id = ?::uuid",
                    secondId);
            assertEquals(-1, ((Number) row.get("status")).intValue());
            assertEquals(2L, ((Number) row.get("version")).longValue());
        }
    }

    private static List<ConsumerRecord<String, String>> readKeyEvents(String keyId) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "it-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(Topics.KEYS));
            List<ConsumerRecord<String, String>> found = new java.util.ArrayList<>();
            Instant deadline = Instant.now().plusSeconds(20);
            while (found.size() < 2 && Instant.now().isBefore(deadline)) {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> {
                    if (keyId.equals(r.key())) {
                        found.add(r);
                    }
                });
            }
            assertEquals(2, found.size(), "created and revoked events of key " + keyId);
            return found;
        }
    }

    private static KafkaProducer<String, String> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private static void awaitConsumed(String group, TopicPartition partition, long offset) throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        try (Admin admin = Admin.create(props)) {
            awaitTrue(Duration.ofSeconds(30), () -> {
                try {
                    OffsetAndMetadata committed = admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata().get().get(partition);
                    return committed != null && committed.offset() >= offset;
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    private static void awaitTrue(Duration timeout, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            assertTrue(Instant.now().isBefore(deadline), "condition not met within " + timeout);
            Suite.sleep(100);
        }
    }

    private static long count(Connection db, String sql, String arg) throws SQLException {
        try (PreparedStatement st = db.prepareStatement(sql)) {
            st.setString(1, arg);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Map<String, Object> one(Connection db, String sql, String arg) throws SQLException {
        try (PreparedStatement st = db.prepareStatement(sql)) {
            st.setString(1, arg);
            try (ResultSet rs = st.executeQuery()) {
                assertTrue(rs.next(), "no row for " + arg);
                Map<String, Object> row = new java.util.HashMap<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                }
                assertNotNull(row);
                return row;
            }
        }
    }
}
