package dev.cryptopay.systemtests.webhooks;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.systemtests.ServiceDatabases;
import dev.cryptopay.systemtests.Suite;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What the webhook system tests share: accounts and webhooks made through the gateway, transaction events as
 * transaction-service will publish them, a receiver-side signature check and a look into webhook-service's
 * database.
 *
 * <p>transaction-service does not publish {@code transaction.success} yet (no payment detection so far) and the
 * tests need events at a chosen time and rate, so they produce the CloudEvents on {@code payments.transactions.v1}
 * themselves, with Transaction-shaped {@code data} including {@code accountID} (docs/decisions.md §7, §8).
 */
final class WebhookFixtures {

    record Account(String id, String apiKey) {
    }

    private WebhookFixtures() {
    }

    /** A new account whose admin key already works at the gateway. */
    static Account newAccount(Suite suite, String name) {
        JsonPath created = given().auth().oauth2(suite.operatorToken()).contentType(ContentType.JSON)
                .body("{\"name\":\"" + name + "\",\"email\":\"webhooks@it.example\"}")
                .when().post("/operator/accounts")
                .then().statusCode(201).extract().jsonPath();
        Account account = new Account(created.getString("accountUUID"), created.getString("apiKey.generatedKey"));
        awaitTrue(Duration.ofSeconds(30), () -> given().header("X-Api-Key", account.apiKey())
                .get("/accounts/" + account.id() + "/webhooks").statusCode() == 200, "the key reaches the gateway");
        return account;
    }

    /** A further API key of the account with {@code role} ({@code admin}, {@code read_only}), once it works. */
    static String newKey(Account account, String role) {
        String key = given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"keyType\":\"api\",\"name\":\"it-" + role + "\",\"role\":\"" + role + "\"}")
                .when().post("/accounts/" + account.id() + "/keys")
                .then().statusCode(201).extract().path("generatedKey");
        awaitTrue(Duration.ofSeconds(30), () -> given().header("X-Api-Key", key)
                .get("/accounts/" + account.id() + "/webhooks").statusCode() == 200, "the new key reaches the gateway");
        return key;
    }

    /** Publishes one record on the transactions topic and waits for the broker's acknowledgement. */
    static void publish(KafkaProducer<String, String> producer, String key, String value) {
        try {
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                    dev.cryptopay.events.Topics.TRANSACTIONS, key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A single text value from webhook-service's database (read-only look behind the API), or null. */
    static String text(String sql, String arg) {
        return ServiceDatabases.value("webhook", sql, arg);
    }

    /** Creates a webhook through the gateway; returns the creation answer (uuid, signingKey, ...). */
    static JsonPath createWebhook(Account account, String name, String url, List<String> events) {
        String body = "{\"name\":\"" + name + "\",\"url\":\"" + url + "\",\"events\":["
                + events.stream().map(e -> "\"" + e + "\"").collect(Collectors.joining(",")) + "]}";
        return given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON).body(body)
                .when().post("/accounts/" + account.id() + "/webhooks")
                .then().statusCode(201).extract().jsonPath();
    }

    static void setStatus(Account account, String webhook, int status) {
        given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                .body("{\"status\":" + status + "}")
                .when().put("/accounts/" + account.id() + "/webhooks/" + webhook)
                .then().statusCode(204);
    }

    static JsonPath deliveries(Account account, String webhook) {
        return given().header("X-Api-Key", account.apiKey()).queryParam("limit", 100)
                .when().get("/accounts/" + account.id() + "/webhooks/" + webhook + "/deliveries")
                .then().statusCode(200).extract().jsonPath();
    }

    static KafkaProducer<String, String> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    /** A transaction event as transaction-service will write it: CloudEvent envelope, Transaction as data. */
    static String transactionEvent(String eventId, String type, String transactionId, String accountId) {
        String now = Instant.now().truncatedTo(ChronoUnit.MICROS).toString();
        String data = """
                {"transactionID":"%s","accountID":"%s","merchantID":"%s","externalMID":"ext-1","descriptor":"IT shop",\
                "referenceNumber":"order-%s","quoteID":null,"status":1,"paymentStatus":1,\
                "amounts":{"currency":"EUR","totalLocal":%s,"totalUSD":%s,"receivedUSD":%s,"customerFeeUSD":0.00,\
                "fxRateToUSD":1.0870},"compliance":{"kycTriggered":false,"travelRuleTriggered":false,\
                "resolutionLogs":[]},"payments":[],"refunds":[],"remainingLocal":0.00,"remainingUSD":0.00,\
                "cancellationReason":null,"createdAt":"%s","updatedAt":"%s","expiration":"%s"}"""
                .formatted(transactionId, accountId, UUID.randomUUID(), transactionId.substring(0, 8),
                        new BigDecimal("25.50"), new BigDecimal("27.71850"), new BigDecimal("27.71850"), now, now,
                        Instant.now().plus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.SECONDS));
        return """
                {"id":"%s","source":"/transaction-service","type":"%s","specversion":"1.0","time":"%s",\
                "subject":"%s","datacontenttype":"application/json","data":%s}"""
                .formatted(eventId, type, now, transactionId, data);
    }

    /** Verification as a receiver does it with a Standard Webhooks library, after wk_ → whsec_. */
    static boolean signatureValid(String signingKey, WebhookReceiver.Request request) {
        try {
            byte[] key = Base64.getDecoder().decode(signingKey.substring("wk_".length()));
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            String expected = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(
                    (request.webhookId() + "." + request.timestamp() + "." + request.body())
                            .getBytes(StandardCharsets.UTF_8)));
            for (String candidate : request.signature().split(" ")) {
                if (MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                        candidate.getBytes(StandardCharsets.US_ASCII))) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A single number from webhook-service's database (read-only look behind the API). */
    static long count(String sql, String arg) {
        return ServiceDatabases.count("webhook", sql, arg);
    }

    static void awaitTrue(Duration timeout, BooleanSupplier condition, String what) {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            assertTrue(Instant.now().isBefore(deadline), what + ": not within " + timeout);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
