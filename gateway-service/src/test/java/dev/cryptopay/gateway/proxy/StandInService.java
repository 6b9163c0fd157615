package dev.cryptopay.gateway.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;

/**
 * A JDK HTTP server standing in for a downstream service on its test port (no real service in these tests): it hands
 * every request to {@code seen}, then answers 200 (or the status given) with {@code {"ok":true}}.
 */
final class StandInService {

    /** What a test records of a request before the stand-in answers it. */
    @FunctionalInterface
    interface Observer {
        void seen(HttpExchange exchange) throws IOException;
    }

    private StandInService() {
    }

    /** Starts the stand-in on {@code port}; {@code executor} null handles requests on the server's own thread. */
    static HttpServer start(int port, Executor executor, Observer seen) throws IOException {
        return start(port, executor, seen, 200);
    }

    /** Holds the request being answered for {@code millis} (a slow service), on the stand-in's thread. */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The bytes of {@code GET path} with an API key, as a client writes them on a socket it may hang up. */
    static byte[] rawGet(String path, String apiKey) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: " + apiKey + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The same, answering {@code status}. */
    static HttpServer start(int port, Executor executor, Observer seen, int status) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            seen.seen(exchange);
            byte[] answer = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        return server;
    }
}
