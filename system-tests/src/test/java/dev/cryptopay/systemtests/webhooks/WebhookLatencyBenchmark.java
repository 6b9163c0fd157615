package dev.cryptopay.systemtests.webhooks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.Topics;
import dev.cryptopay.systemtests.Suite;
import dev.cryptopay.systemtests.webhooks.WebhookFixtures.Account;
import io.restassured.RestAssured;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * Webhook latency under sustained load: "event committed to Kafka → webhook received", across the running suite.
 * Not part of {@code mvn verify} (the name matches neither *Test nor *IT); run it with
 * {@code bench/webhook-latency.sh}, which passes these system properties:
 *
 * <ul>
 * <li>{@code bench.rate} events per second (200), {@code bench.seconds} measured seconds (30),
 * {@code bench.warmup} seconds of unmeasured load first (5);</li>
 * <li>{@code bench.receivers} receivers on loopback (10), the last of which is dead: it accepts connections and
 * never answers, so every attempt to it costs the full 10 s request timeout;</li>
 * <li>{@code bench.fanout}: {@code spread} (default) gives each receiver its own account and webhook and sends
 * the events round-robin over the accounts, so every event is one delivery; {@code all} puts all webhooks on one
 * account, so every event is delivered to every receiver (rate × receivers deliveries per second).</li>
 * </ul>
 *
 * The clock starts just before the producer sends the record (so it includes the Kafka write) and stops when the
 * receiver has read the request; both ends run in this JVM. Events are produced by the benchmark because
 * transaction-service does not publish transaction.success yet. The report goes to stdout and
 * {@code target/bench/webhook-latency.txt}.
 */
class WebhookLatencyBenchmark {

    @Test
    void latencyUnderSustainedLoadWithADeadReceiver() throws Exception {
        int rate = Integer.getInteger("bench.rate", 200);
        int seconds = Integer.getInteger("bench.seconds", 30);
        int warmup = Integer.getInteger("bench.warmup", 5);
        int receiversCount = Math.max(2, Integer.getInteger("bench.receivers", 10));
        boolean fanOut = "all".equals(System.getProperty("bench.fanout", "spread"));

        Suite suite = Suite.get();
        RestAssured.baseURI = Suite.gatewayUrl();

        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        Map<String, Boolean> measured = new ConcurrentHashMap<>();
        List<List<Long>> latencies = new ArrayList<>();
        List<WebhookReceiver> live = new ArrayList<>();
        for (int i = 0; i < receiversCount - 1; i++) {
            List<Long> mine = Collections.synchronizedList(new ArrayList<>());
            latencies.add(mine);
            live.add(WebhookReceiver.counting(request -> {
                Long start = sentAt.get(request.webhookId());
                if (start != null && measured.containsKey(request.webhookId())) {
                    mine.add(request.receivedAtNanos() - start);
                }
            }));
        }
        WebhookReceiver.Dead dead = new WebhookReceiver.Dead();

        List<Account> accounts = new ArrayList<>();
        Map<String, Account> created = new ConcurrentHashMap<>(); // webhook uuid -> account, deleted at the end
        if (fanOut) {
            Account account = WebhookFixtures.newAccount(suite, "Bench fan-out");
            accounts.add(account);
            live.forEach(r -> created.put(
                    WebhookFixtures.createWebhook(account, "bench live", r.url(), List.of("*")).getString("uuid"),
                    account));
            created.put(WebhookFixtures.createWebhook(account, "bench dead", dead.url(), List.of("*"))
                    .getString("uuid"), account);
        } else {
            for (WebhookReceiver r : live) {
                Account account = WebhookFixtures.newAccount(suite, "Bench live");
                created.put(WebhookFixtures.createWebhook(account, "bench live", r.url(), List.of("*"))
                        .getString("uuid"), account);
                accounts.add(account);
            }
            Account deadAccount = WebhookFixtures.newAccount(suite, "Bench dead");
            created.put(WebhookFixtures.createWebhook(deadAccount, "bench dead", dead.url(), List.of("*"))
                    .getString("uuid"), deadAccount);
            accounts.add(deadAccount);
        }

        long expectedLive = 0;
        AtomicLong sent = new AtomicLong();
        try (KafkaProducer<String, String> producer = WebhookFixtures.producer()) {
            long intervalNanos = 1_000_000_000L / rate;
            long total = (long) rate * (warmup + seconds);
            long warmupEvents = (long) rate * warmup;
            long next = System.nanoTime();
            for (long n = 0; n < total; n++) {
                LockSupport.parkNanos(next - System.nanoTime());
                next += intervalNanos;
                Account account = accounts.get((int) (n % accounts.size()));
                boolean toLive = fanOut || n % accounts.size() != accounts.size() - 1;
                String id = UUID.randomUUID().toString();
                String tx = UUID.randomUUID().toString();
                String value = WebhookFixtures.transactionEvent(id, "transaction.success", tx, account.id());
                if (n >= warmupEvents && toLive) {
                    measured.put(id, Boolean.TRUE);
                    expectedLive += fanOut ? live.size() : 1;
                }
                sentAt.put(id, System.nanoTime());
                producer.send(new ProducerRecord<>(Topics.TRANSACTIONS, tx, value));
                sent.incrementAndGet();
            }
            producer.flush();
        }
        long expected = expectedLive;
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (latencies.stream().mapToLong(List::size).sum() < expected && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }

        List<Long> all = new ArrayList<>();
        latencies.forEach(all::addAll);
        Collections.sort(all);
        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "webhook latency benchmark (%s)%n", Instant.now()));
        report.append(String.format(Locale.ROOT, "machine: %d CPUs; suite: six services from their jars, Kafka and "
                + "PostgreSQL on this host%n", Runtime.getRuntime().availableProcessors()));
        report.append(String.format(Locale.ROOT, "load: %d events/s for %d s after %d s warm-up, %d receivers on "
                + "loopback (1 dead: accepts, never answers), fan-out %s%n", rate, seconds, warmup, receiversCount,
                fanOut ? "all (each event to every receiver)" : "spread (each event to one receiver)"));
        report.append(String.format(Locale.ROOT, "measured deliveries to live receivers: %d of %d expected%n",
                all.size(), expected));
        report.append(String.format(Locale.ROOT, "latency event sent -> webhook received (live receivers): "
                + "p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms%n", ms(all, 0.50), ms(all, 0.90),
                ms(all, 0.99), ms(all, 1.0)));
        for (int i = 0; i < latencies.size(); i++) {
            List<Long> mine = new ArrayList<>(latencies.get(i));
            Collections.sort(mine);
            report.append(String.format(Locale.ROOT, "  receiver %d: %d deliveries, p50 %.1f ms, p99 %.1f ms%n",
                    i + 1, mine.size(), ms(mine, 0.50), ms(mine, 0.99)));
        }
        report.append(String.format(Locale.ROOT, "dead receiver: %d connections accepted, none answered%n",
                dead.connections()));
        System.out.print(report);
        Path out = Path.of("target/bench/webhook-latency.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());

        // Delete the webhooks: their pending deliveries (the dead receiver's backlog) are cancelled and cannot load
        // the next run against the same *_it database.
        created.forEach((webhook, account) -> io.restassured.RestAssured.given()
                .header("X-Api-Key", account.apiKey())
                .delete("/accounts/" + account.id() + "/webhooks/" + webhook).then().statusCode(204));
        live.forEach(WebhookReceiver::close);
        dead.close();
        assertTrue(all.size() >= expected, "every measured event reached its live receiver(s)");
    }

    private static double ms(List<Long> sorted, double quantile) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1_000_000.0;
    }
}
