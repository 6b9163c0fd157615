package dev.cryptopay.systemtests.webhooks;

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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** A merchant's webhook endpoint on loopback: records every request, answers scripted statuses then a default. */
public final class WebhookReceiver implements AutoCloseable {

    /** One request as the receiver saw it; {@code receivedAtNanos} is System.nanoTime() on arrival. */
    public record Request(String webhookId, String timestamp, String signature, String body, long receivedAtMillis,
            long receivedAtNanos) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Set<String> distinctIds = ConcurrentHashMap.newKeySet();
    private final AtomicLong count = new AtomicLong();
    private final Deque<Integer> script = new ConcurrentLinkedDeque<>();
    private final int defaultStatus;
    private final boolean keepRequests;
    private volatile Consumer<Request> listener = r -> {
    };

    private WebhookReceiver(int defaultStatus, boolean keepRequests) throws IOException {
        this.defaultStatus = defaultStatus;
        this.keepRequests = keepRequests;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1000);
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                var h = exchange.getRequestHeaders();
                Request request = new Request(h.getFirst("webhook-id"), h.getFirst("webhook-timestamp"),
                        h.getFirst("webhook-signature"), body, System.currentTimeMillis(), System.nanoTime());
                listener.accept(request);
                if (keepRequests) {
                    requests.add(request);
                }
                if (request.webhookId() != null) {
                    distinctIds.add(request.webhookId());
                }
                count.incrementAndGet();
                Integer scripted = script.pollFirst();
                int status = scripted != null ? scripted : defaultStatus;
                exchange.sendResponseHeaders(status, 2);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write("ok".getBytes(StandardCharsets.US_ASCII));
                }
            }
        });
        server.start();
    }

    public static WebhookReceiver answering(int status) throws IOException {
        return new WebhookReceiver(status, true);
    }

    /** Answers {@code first} in order, then {@code then} for ever. */
    public static WebhookReceiver scripted(int then, int... first) throws IOException {
        WebhookReceiver receiver = new WebhookReceiver(then, true);
        for (int status : first) {
            receiver.script.addLast(status);
        }
        return receiver;
    }

    /** For load: answers 200, counts and calls {@code listener} on arrival, keeps no requests. */
    public static WebhookReceiver counting(Consumer<Request> listener) throws IOException {
        WebhookReceiver receiver = new WebhookReceiver(200, false);
        receiver.listener = listener;
        return receiver;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks/cryptopay";
    }

    public List<Request> requests() {
        return new ArrayList<>(requests);
    }

    public List<Request> requestsFor(String webhookId) {
        return requests.stream().filter(r -> webhookId.equals(r.webhookId())).toList();
    }

    public Set<String> distinctIds() {
        return distinctIds;
    }

    public long count() {
        return count.get();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** A receiver that accepts connections and never answers, as a hung merchant server would. */
    public static final class Dead implements AutoCloseable {
        private final java.net.ServerSocket socket;
        private final List<java.net.Socket> held = new CopyOnWriteArrayList<>();
        private final Thread acceptor;

        public Dead() throws IOException {
            socket = new java.net.ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
            acceptor = Thread.ofPlatform().daemon().start(() -> {
                while (!socket.isClosed()) {
                    try {
                        held.add(socket.accept());
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        public String url() {
            return "http://127.0.0.1:" + socket.getLocalPort() + "/dead";
        }

        public int connections() {
            return held.size();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (java.net.Socket s : held) {
                s.close();
            }
        }
    }

}
