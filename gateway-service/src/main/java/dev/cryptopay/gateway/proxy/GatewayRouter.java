package dev.cryptopay.gateway.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.gateway.auth.Authenticator;
import dev.cryptopay.gateway.auth.Identity;
import dev.cryptopay.gateway.auth.TokenMinter;
import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.gateway.routing.Downstream;
import dev.cryptopay.gateway.routing.RouteTable;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.problem.Problem;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.HttpProxy;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;
import io.vertx.httpproxy.ProxyResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The gateway's one request handler: match the route table, authenticate, replace every client identity
 * header by a signed internal token, and stream the request to the owning service with the Vert.x HTTP proxy
 * (bodies are piped, never buffered whole). Anything the gateway answers itself is problem+json.
 */
@ApplicationScoped
public class GatewayRouter {

    public static final String REQUEST_ID = "X-Request-Id";
    private static final Logger LOG = Logger.getLogger(GatewayRouter.class);
    /** Identity headers a client may send; they are consumed here and never reach a service. */
    private static final List<String> CLIENT_IDENTITY_HEADERS = List.of("Authorization", Authenticator.API_KEY_HEADER,
            Authenticator.PUBLISHABLE_KEY_HEADER, Authenticator.MID_HEADER, Authenticator.ACCOUNT_HEADER);
    private static final long RETRY_AFTER_SECONDS = 5;

    private final RouteTable routes;
    private final Authenticator authenticator;
    private final TokenMinter minter;
    private final GatewayConfig config;
    private final ObjectMapper mapper;
    private final Map<Downstream, HttpProxy> proxies = new EnumMap<>(Downstream.class);

    public GatewayRouter(RouteTable routes, Authenticator authenticator, TokenMinter minter, GatewayConfig config,
            ObjectMapper mapper) {
        this.routes = routes;
        this.authenticator = authenticator;
        this.minter = minter;
        this.config = config;
        this.mapper = mapper;
    }

    void install(@Observes Router router, Vertx vertx) {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout(2_000)
                .setIdleTimeout((int) config.downstreamTimeout().toSeconds())
                .setKeepAlive(true)
                .setMaxPoolSize(64));
        for (Downstream service : Downstream.values()) {
            URI base = URI.create(baseUrl(service));
            HttpProxy proxy = HttpProxy.reverseProxy(client).origin(base.getPort(), base.getHost());
            proxy.addInterceptor(new DownstreamFailureAsProblem(service));
            proxies.put(service, proxy);
        }
        router.route().order(-10).handler(this::handle);
    }

    private String baseUrl(Downstream service) {
        GatewayConfig.Services s = config.services();
        return switch (service) {
            case MERCHANT -> s.merchant();
            case TRANSACTION -> s.transaction();
            case SUBSCRIPTION -> s.subscription();
            case WEBHOOK -> s.webhook();
            case REPORTING -> s.reporting();
        };
    }

    private void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String path = request.path();
        if (path.startsWith("/q/")) {
            ctx.next();
            return;
        }
        String requestId = requestId(request.headers().get(REQUEST_ID));
        request.headers().set(REQUEST_ID, requestId);
        request.response().putHeader(REQUEST_ID, requestId);

        switch (routes.match(request.method().name(), path)) {
            case RouteTable.NoRoute none -> respond(ctx, ApiException.notFound("Path " + path));
            case RouteTable.WrongMethod wrong -> {
                request.response().putHeader("Allow", String.join(", ", wrong.allowed()));
                respond(ctx, new ApiException(405, "method_not_allowed", "Method not allowed",
                        request.method().name() + " is not supported on this path.", null, null));
            }
            case RouteTable.Found found -> {
                request.pause();
                MultiMap headers = request.headers();
                ctx.vertx().<String>executeBlocking(() -> {
                    MDC.put("requestId", requestId);
                    try {
                        Identity identity = authenticator.authenticate(found.route().auth(),
                                request.method().name(), headers);
                        return minter.tokenFor(identity);
                    } finally {
                        MDC.remove("requestId");
                    }
                }, false).onComplete(result -> {
                    if (result.failed()) {
                        request.resume();
                        respond(ctx, result.cause());
                        return;
                    }
                    CLIENT_IDENTITY_HEADERS.forEach(headers::remove);
                    headers.set("Authorization", "Bearer " + result.result());
                    proxies.get(found.route().service()).handle(request);
                });
            }
        }
    }

    private static String requestId(String offered) {
        if (offered != null && offered.matches("[A-Za-z0-9._:-]{1,128}")) {
            return offered;
        }
        return UUID.randomUUID().toString();
    }

    private void respond(RoutingContext ctx, Throwable failure) {
        ApiException problem;
        if (failure instanceof ApiException api) {
            problem = api;
        } else {
            LOG.error("gateway failure", failure);
            problem = ApiException.unavailable("The gateway could not handle the request; try again.",
                    RETRY_AFTER_SECONDS);
        }
        var response = ctx.response().setStatusCode(problem.status()).putHeader("Content-Type", Problem.MEDIA_TYPE);
        if (problem.retryAfterSeconds() != null) {
            response.putHeader("Retry-After", String.valueOf(problem.retryAfterSeconds()));
        }
        response.end(json(problem.toProblem()));
    }

    private Buffer json(Problem problem) {
        try {
            return Buffer.buffer(mapper.writeValueAsBytes(problem));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A service that refuses the connection or does not answer in time becomes a 503 problem with Retry-After. */
    private final class DownstreamFailureAsProblem implements ProxyInterceptor {
        private final Downstream service;

        DownstreamFailureAsProblem(Downstream service) {
            this.service = service;
        }

        @Override
        public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
            return context.sendRequest().recover(failure -> {
                LOG.warnf("%s service failed: %s", service, failure.getMessage());
                Problem problem = ApiException.unavailable("A service behind the gateway is unavailable; retry later.",
                        RETRY_AFTER_SECONDS).toProblem();
                ProxyResponse response = context.request().response()
                        .setStatusCode(503)
                        .putHeader("Content-Type", Problem.MEDIA_TYPE)
                        .putHeader("Retry-After", String.valueOf(RETRY_AFTER_SECONDS))
                        .setBody(Body.body(json(problem)));
                return Future.succeededFuture(response);
            });
        }
    }
}
