import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Benchmark data for bench/reporting-projection.sh: {@code count} transaction events in the documented shape
 * (payments.transactions.v1: the full Transaction with version, merchantFees from success, one payment with the
 * reporting fields), one transaction each, spread over {@code accounts} accounts of 10 merchants each, created
 * uniformly over 2026; status 1 (60 %), 0 (15 %), -1 (15 %), -2 (10 %). Plus one merchant event per merchant with a
 * daily settlement schedule. Ids are derived from the run name, so the benchmark can address accounts and merchants.
 *
 *   java -cp <kafka-clients and its deps> GenerateEvents.java BOOTSTRAP TOPIC_PREFIX COUNT ACCOUNTS
 */
public class GenerateEvents {

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String prefix = args[1];
        long count = Long.parseLong(args[2]);
        int accounts = Integer.parseInt(args[3]);
        // The test broker creates no topics on its own: these have the partitions of the real ones, kept forever.
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<String, String> keep = Map.of("retention.ms", "-1", "retention.bytes", "-1");
            admin.createTopics(List.of(new NewTopic(prefix + ".transactions", 3, (short) 1).configs(keep),
                    new NewTopic(prefix + ".refunds", 3, (short) 1).configs(keep),
                    new NewTopic(prefix + ".merchants", 3, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                    .all().get();
        }
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(512 * 1024));
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(128L * 1024 * 1024));
        Random random = new Random(42);
        long started = System.nanoTime();
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int a = 0; a < accounts; a++) {
                for (int m = 0; m < 10; m++) {
                    String merchant = id("merchant-" + a + "-" + m);
                    String data = "{\"merchantId\":\"" + merchant + "\",\"accountId\":\"" + id("account-" + a)
                            + "\",\"externalMID\":\"m" + m + "\",\"name\":\"Shop\",\"status\":1,"
                            + "\"settlementFrequency\":\"daily\",\"settlementAnchor\":\"2026-01-01T00:00:00Z\","
                            + "\"version\":1,\"updatedAt\":\"2026-01-01T00:00:00Z\"}";
                    producer.send(new ProducerRecord<>(prefix + ".merchants", merchant,
                            event("merchant.updated", merchant, data)));
                }
            }
            long yearMicros = 365L * 24 * 3600 * 1_000_000;
            Instant base = Instant.parse("2026-01-01T00:00:00Z");
            for (long i = 0; i < count; i++) {
                int a = (int) (i % accounts);
                int m = random.nextInt(10);
                String tx = new UUID(random.nextLong(), random.nextLong()).toString();
                Instant created = base.plusNanos(Math.floorMod(random.nextLong(), yearMicros) * 1000);
                int roll = random.nextInt(100);
                int status = roll < 60 ? 1 : roll < 75 ? 0 : roll < 90 ? -1 : -2;
                String value = event(status == 1 ? "transaction.success" : "transaction.created", tx,
                        transaction(tx, id("account-" + a), id("merchant-" + a + "-" + m), status, created, random));
                producer.send(new ProducerRecord<>(prefix + ".transactions", tx, value), (meta, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
                if (failure.get() != null) {
                    throw failure.get();
                }
            }
            producer.flush();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("produced %d transaction events in %.1f s (%.0f/s)%n", count, seconds, count / seconds);
    }

    static String id(String name) {
        return UUID.nameUUIDFromBytes(("bench-" + name).getBytes()).toString();
    }

    static String event(String type, String subject, String data) {
        return "{\"id\":\"" + UUID.randomUUID() + "\",\"source\":\"/bench\",\"type\":\"" + type
                + "\",\"specversion\":\"1.0\",\"time\":\"" + Instant.now() + "\",\"subject\":\"" + subject
                + "\",\"datacontenttype\":\"application/json\",\"data\":" + data + "}";
    }

    static String transaction(String tx, String account, String merchant, int status, Instant created,
            Random random) {
        BigDecimal total = BigDecimal.valueOf(100 + random.nextInt(99_900), 2);
        boolean paid = status == 1;
        String received = paid ? total.toPlainString() : "0";
        Instant updated = created.plusSeconds(60 + random.nextInt(900));
        String fees = paid ? "{\"merchantDiscountRate\":{\"percentage\":0.025,\"flatRate\":0.30,"
                + "\"flatRateCurrency\":\"USD\"},\"fees\":{\"platform\":{\"collection\":\"deduct\","
                + "\"perTransaction\":{\"basisPoints\":50,\"flatCents\":10}},\"partner\":null}}" : "null";
        String payment = "{\"paymentRequestID\":\"" + UUID.nameUUIDFromBytes(tx.getBytes()) + "\",\"cryptoAsset\":"
                + "\"USDC\",\"cryptoNetwork\":\"polygon\",\"address\":\"0x" + tx.replace("-", "").substring(0, 32)
                + "\",\"expectedCrypto\":" + total + ",\"receivedCrypto\":" + received + ",\"expectedUSD\":" + total
                + ",\"receivedUSD\":" + received + ",\"txnHash\":" + (paid ? "\"0x" + tx.replace("-", "") + "\"" : "null")
                + ",\"confirmationCount\":" + (paid ? 5 : 0) + ",\"gasFee\":0.0021,\"status\":" + (paid ? 1 : 0)
                + ",\"qrData\":\"ethereum:...\",\"expiration\":\"" + created.plusSeconds(900)
                + "\",\"cryptoFXRate\":1,\"requiredConfirmations\":5,\"fromAddress\":\"0xpayer\",\"transfers\":[],"
                + "\"createdAt\":\"" + created + "\",\"completedAt\":" + (paid ? "\"" + updated + "\"" : "null")
                + ",\"gasFeeUnits\":\"POL\",\"walletName\":null,\"cryptoRatePerUSD\":1,\"fraudPass\":true}";
        return "{\"transactionID\":\"" + tx + "\",\"accountID\":\"" + account + "\",\"merchantID\":\"" + merchant
                + "\",\"externalMID\":null,\"descriptor\":\"Bench shop\",\"referenceNumber\":\"ref-" + tx.substring(0, 8)
                + "\",\"quoteID\":null,\"status\":" + status + ",\"paymentStatus\":" + (paid ? 1 : 0)
                + ",\"amounts\":{\"currency\":\"USD\",\"totalLocal\":" + total + ",\"totalUSD\":" + total
                + ",\"receivedUSD\":" + received + ",\"customerFeeUSD\":0,\"fxRateToUSD\":1},"
                + "\"compliance\":{\"kycTriggered\":false,\"travelRuleTriggered\":false,\"kycDetails\":null,"
                + "\"resolutionLogs\":[],\"strFilingReference\":null},\"payments\":[" + payment + "],\"refunds\":[],"
                + "\"remainingLocal\":0,\"remainingUSD\":0,\"cancellationReason\":" + (status == -2 ? "\"bench\"" : "null")
                + ",\"createdAt\":\"" + created + "\",\"updatedAt\":\"" + updated + "\",\"expiration\":\""
                + created.plusSeconds(3600) + "\",\"version\":1,\"merchantFees\":" + fees + "}";
    }
}
