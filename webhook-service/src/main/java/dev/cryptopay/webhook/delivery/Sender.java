package dev.cryptopay.webhook.delivery;

import dev.cryptopay.webhook.config.WebhookConfig;
import dev.cryptopay.webhook.service.UrlPolicy.Destination;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends one webhook request with the Vert.x core HTTP client Quarkus already runs (non-blocking; the caller is a
 * virtual thread that simply waits). Connections are pooled per destination host and port, at most
 * {@code max-connections-per-host} each, so a slow receiver only ever queues requests to itself.
 *
 * <p>The request connects to exactly the address {@link dev.cryptopay.webhook.service.UrlPolicy} checked, while
 * {@code Host}, TLS SNI and certificate verification use the URL's host name. Redirects are not followed.
 */
@ApplicationScoped
public class Sender {

    public static final String USER_AGENT = "cryptopay-webhooks/0.1";

    /** The receiver's answer: its HTTP status. */
    public record Answer(int status) {
    }

    /** No complete answer within the request timeout. */
    public static class NoAnswer extends Exception {
        NoAnswer(String message) {
            super(message, null, false, false);
        }
    }

    private final HttpClient client;
    private final Duration timeout;

    public Sender(Vertx vertx, WebhookConfig config) {
        this.timeout = config.requestTimeout();
        HttpClientOptions options = new HttpClientOptions()
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .setKeepAlive(true)
                .setKeepAliveTimeout(30)
                .setVerifyHost(true)
                .setTryUseCompression(false);
        PoolOptions pool = new PoolOptions()
                .setHttp1MaxSize(config.maxConnectionsPerHost())
                .setMaxWaitQueueSize(-1);
        this.client = vertx.createHttpClient(options, pool);
    }

    /**
     * POSTs {@code body} and waits for the whole answer, at most the request timeout. Blocking: call it from a
     * virtual thread.
     *
     * @throws NoAnswer when the receiver does not answer in time (the request is then reset)
     * @throws Exception whatever else went wrong (connection refused, TLS failure, reset connection)
     */
    public Answer post(Destination destination, MultiMap headers, String body) throws Exception {
        long timeoutMillis = timeout.toMillis();
        RequestOptions request = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(destination.port(),
                        destination.address().getHostAddress()))
                .setHost(destination.host())
                .setPort(destination.port())
                .setSsl(destination.https())
                .setURI(destination.pathAndQuery())
                .setFollowRedirects(false)
                .setConnectTimeout(timeoutMillis)
                .setIdleTimeout(timeoutMillis)
                .setHeaders(headers);
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
        client.request(request)
                .onFailure(answer::completeExceptionally)
                .onSuccess(req -> {
                    sent.set(req);
                    req.send(Buffer.buffer(body))
                            .onFailure(answer::completeExceptionally)
                            .onSuccess(response -> {
                                int status = response.statusCode();
                                // Read and drop the body so the connection can be reused; the status decides.
                                response.handler(chunk -> {
                                });
                                response.end().onComplete(done -> answer.complete(new Answer(status)));
                            });
                });
        try {
            return answer.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            HttpClientRequest req = sent.get();
            if (req != null) {
                req.reset();
            }
            throw new NoAnswer("no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    @PreDestroy
    void close() {
        client.close();
    }
}
