package dev.cryptopay.webhook.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook receiver on loopback for tests: records every request and answers with scripted status codes (then
 * the default), or hangs without answering until {@link #close()}.
 */
public final class Receiver implements AutoCloseable {

    /** One request as the receiver saw it. */
    public record Request(String webhookId, String timestamp, String signature, String contentType, String body,
            long receivedAtMillis, Map<String, List<String>> headers) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Deque<Integer> script = new ConcurrentLinkedDeque<>();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger maxConcurrent = new AtomicInteger();
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile int defaultStatus;
    private volatile boolean hang;

    private Receiver(int defaultStatus) throws IOException {
        this.defaultStatus = defaultStatus;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            int now = concurrent.incrementAndGet();
            maxConcurrent.accumulateAndGet(now, Math::max);
            try (InputStream in = exchange.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                var h = exchange.getRequestHeaders();
                requests.add(new Request(h.getFirst("webhook-id"), h.getFirst("webhook-timestamp"),
                        h.getFirst("webhook-signature"), h.getFirst("content-type"), body,
                        System.currentTimeMillis(), Map.copyOf(h)));
                if (hang) {
                    released.await(60, TimeUnit.SECONDS);
                    exchange.close();
                    return;
                }
                Integer scripted = script.pollFirst();
                int status = scripted != null ? scripted : this.defaultStatus;
                byte[] answer = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                concurrent.decrementAndGet();
            }
        });
        server.start();
    }

    /** Answers every request with {@code status}. */
    public static Receiver answering(int status) throws IOException {
        return new Receiver(status);
    }

    /** Answers {@code first} statuses in order, then {@code then} for ever. */
    public static Receiver scripted(int then, int... first) throws IOException {
        Receiver receiver = new Receiver(then);
        for (int status : first) {
            receiver.script.addLast(status);
        }
        return receiver;
    }

    /** Accepts requests and never answers (until closed). */
    public static Receiver hanging() throws IOException {
        Receiver receiver = new Receiver(200);
        receiver.hang = true;
        return receiver;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks?source=test";
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public List<Request> requests() {
        return new ArrayList<>(requests);
    }

    public List<Request> requestsFor(String webhookId) {
        return requests.stream().filter(r -> webhookId.equals(r.webhookId())).toList();
    }

    public int maxConcurrent() {
        return maxConcurrent.get();
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
