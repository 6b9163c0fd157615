package dev.cryptopay.systemtests.compliance;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.systemtests.SandboxAccount;
import dev.cryptopay.systemtests.Suite;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Compliance through the gateway: a sandbox account whose operator set its autoRefundConfig switches, a merchant
 * with one confirmation on bitcoin, screening-list entries, payments from a chosen sender on the sandbox chain, and
 * the transaction's events as a consumer reads them. Rates: BTC 50,000 USD (100 USD = 0.002 BTC).
 */
final class ComplianceFixtures {

    static final JsonMapper JSON = JsonMapper.builder().nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String BECH32 = "023456789acdefghjklmnpqrstuvwxyz";
    static final String ALL_ON = "{\"aml\":true,\"fraud\":true,\"sanction\":true,\"overpayment\":true,"
            + "\"vendorStatus\":true}";
    static final String ALL_OFF = "{\"aml\":false,\"fraud\":false,\"sanction\":false,\"overpayment\":false,"
            + "\"vendorStatus\":false}";

    /** An account with its switches set by the operator, and one merchant (extra merchant settings in {@code extra}). */
    record Shop(SandboxAccount account, String merchant, String publishable) {

        RequestSpecification asApiKey() {
            return given().header("X-Api-Key", account.apiKey()).header("X-MID", merchant);
        }

        JsonNode create(String usd) {
            return tree(asApiKey().contentType(ContentType.JSON)
                    .body("{\"amount\":" + usd + ",\"amountCurrency\":\"USD\",\"asset\":\"BTC\",\"network\":\"bitcoin\"}")
                    .when().post("/transaction").then().statusCode(201).extract().asString());
        }

        /** A new payment request naming the payer {@code wallet}. */
        JsonNode payWith(String transactionId, String wallet) {
            return tree(given().header("X-Publishable-Key", publishable).contentType(ContentType.JSON)
                    .body("{\"asset\":\"BTC\",\"network\":\"bitcoin\",\"wallet\":\"" + wallet + "\"}")
                    .when().post("/transaction/" + transactionId + "/payment").then().statusCode(201).extract()
                    .asString());
        }

        void transfer(String to, String from, String amount) {
            given().header("X-Api-Key", account.apiKey()).contentType(ContentType.JSON)
                    .body("{\"network\":\"bitcoin\",\"asset\":\"BTC\",\"toAddress\":\"" + to + "\",\"fromAddress\":\""
                            + from + "\",\"amount\":\"" + amount + "\",\"confirmations\":1}")
                    .when().post("/sandbox/chain/transfers").then().statusCode(201);
        }

        /** Creates a transaction of {@code usd} and pays {@code btc} to it from {@code sender}; answers its id. */
        String pay(String usd, String sender, String btc) {
            JsonNode created = create(usd);
            transfer(created.get("address").asText(), sender, btc);
            return created.get("transactionId").asText();
        }

        /** Polls Get Transaction (API key) until {@code condition} holds (30 s at most). */
        JsonNode await(String id, Predicate<JsonNode> condition) {
            Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
            JsonNode tx = null;
            while (Instant.now().isBefore(deadline)) {
                Response response = asApiKey().when().get("/transaction/" + id);
                if (response.statusCode() == 200) {
                    tx = tree(response.asString());
                    if (condition.test(tx)) {
                        return tx;
                    }
                }
                pause();
            }
            throw new AssertionError("condition not reached within 30 s; last state: " + tx);
        }
    }

    private ComplianceFixtures() {
    }

    static void rates() {
        operator().body("{\"rates\":[{\"code\":\"BTC\",\"usd\":\"50000\"}]}").when().put("/operator/rates").then()
                .statusCode(200);
    }

    /** A new account with {@code autoRefundConfig} set by the operator first, then its merchant. */
    static Shop shop(String name, String autoRefundConfig, String extraMerchantSettings) {
        SandboxAccount account = SandboxAccount.create(name);
        operator().body("{\"autoRefundConfig\":" + autoRefundConfig + "}")
                .when().patch("/operator/accounts/" + account.accountId()).then().statusCode(200);
        String one = "{\"minConfirmsLow\":1,\"minConfirmsHigh\":1,\"qrExpirationSeconds\":900}";
        String merchant = account.newMerchant("{\"name\":\"" + name + " Shop\",\"address1\":\"1 Main St\","
                + "\"city\":\"Berlin\",\"region\":\"BE\",\"country\":\"DE\",\"allowedCrypto\":\"BTC\","
                + "\"cryptoNetworkConfigs\":{\"bitcoin\":{\"cryptoAssetConfigs\":{\"BTC\":" + one + "}}}"
                + (extraMerchantSettings == null ? "" : "," + extraMerchantSettings) + "}");
        return new Shop(account, merchant, account.newKey("publishable", null, merchant));
    }

    /** A fresh bitcoin (testnet) address added to the list {@code it-compliance} under {@code category}. */
    static String listed(String category, String exchangeName) {
        String address = address();
        operator().body("{\"entries\":[{\"network\":\"bitcoin\",\"address\":\"" + address + "\",\"category\":\""
                + category + "\"" + (exchangeName == null ? "" : ",\"exchangeName\":\"" + exchangeName + "\"")
                + ",\"source\":\"it-" + address.substring(4, 14) + "\"}]}")
                .when().post("/operator/screening/lists/it-compliance/entries").then().statusCode(200);
        return address;
    }

    static String address() {
        StringBuilder b = new StringBuilder("tb1q");
        for (int i = 0; i < 38; i++) {
            b.append(BECH32.charAt(RANDOM.nextInt(BECH32.length())));
        }
        return b.toString();
    }

    static void providerAvailable(boolean available) {
        operator().body("{\"available\":" + available + ",\"reason\":\"system test\"}")
                .when().put("/operator/screening/status").then().statusCode(200);
    }

    static RequestSpecification operator() {
        return given().auth().oauth2(Suite.throughGateway().operatorToken()).contentType(ContentType.JSON);
    }

    /** The event types of {@code key} on {@code topic}, in order, once {@code until} holds (or after 20 s). */
    static List<String> eventTypes(String topic, String key, Predicate<List<String>> until) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Suite.KAFKA);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "it-compliance-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<String> types = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Instant deadline = Instant.now().plusSeconds(20);
            while (Instant.now().isBefore(deadline) && !until.test(types)) {
                for (var record : consumer.poll(Duration.ofMillis(300))) {
                    if (key.equals(record.key())) {
                        types.add(CloudEvent.parse(record.value()).type());
                    }
                }
            }
            for (var record : consumer.poll(Duration.ofSeconds(1))) {
                if (key.equals(record.key())) {
                    types.add(CloudEvent.parse(record.value()).type());
                }
            }
        }
        return types;
    }

    static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
