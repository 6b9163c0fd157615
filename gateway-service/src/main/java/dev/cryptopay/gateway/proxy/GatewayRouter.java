package dev.cryptopay.gateway.proxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.events.KeyState;
import dev.cryptopay.gateway.auth.Authenticator;
import dev.cryptopay.gateway.auth.Identity;
import dev.cryptopay.gateway.auth.TokenMinter;
import dev.cryptopay.gateway.config.GatewayConfig;
import dev.cryptopay.gateway.idempotency.IdempotencyStore;
import dev.cryptopay.gateway.limits.ClientAddress;
import dev.cryptopay.gateway.limits.RateLimiter;
import dev.cryptopay.gateway.routing.AuthMode;
import dev.cryptopay.gateway.routing.Downstream;
import dev.cryptopay.gateway.routing.Route;
import dev.cryptopay.gateway.routing.RouteTable;
import dev.cryptopay.support.idempotency.IssuedSecrets;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.problem.JsonProblems;
import dev.cryptopay.support.problem.Problem;
import dev.cryptopay.support.problem.ProblemResponses;
import dev.cryptopay.support.security.KeyHash;
import dev.cryptopay.support.web.IdempotencyKeys;
import io.netty.channel.EventLoop;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.streams.ReadStream;
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
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * The gateway's one request handler. In order: match the route table; refuse bodies over the limits;
 * authenticate (off the event loop: it reads the key store); apply the rate limits; for JSON bodies, read
 * them (at most 1 MiB) and honour Idempotency-Key on POSTs; replace every client identity header by a signed
 * internal token; and proxy to the owning service with the Vert.x HTTP proxy. Multipart uploads and bodiless
 * requests are streamed, never buffered. Anything the gateway answers itself is problem+json.
 */
@ApplicationScoped
public class GatewayRouter {

    public static final String REQUEST_ID = "X-Request-Id";
    public static final String IDEMPOTENCY_KEY = IdempotencyKeys.HEADER;
    private static final Logger LOG = Logger.getLogger(GatewayRouter.class);
    /** Identity headers a client may send; they are consumed here and never reach a service. */
    private static final List<String> CLIENT_IDENTITY_HEADERS = List.of("Authorization", Authenticator.API_KEY_HEADER,
            Authenticator.PUBLISHABLE_KEY_HEADER, Authenticator.MID_HEADER, Authenticator.ACCOUNT_HEADER);
    private static final long RETRY_AFTER_SECONDS = 5;
    /** How many of the requests a stop cut off are named in its log line. */
    private static final int UNANSWERED_LOGGED = 20;
    /**
     * How often a proxy client closes pooled connections past their keep-alive (60 s), in ms. Vert.x' default, every
     * second, woke each event loop that had proxied a request once a second for good, busy or idle
     * (docs/performance.md, twenty-second step). Such a connection is now closed up to 15 s later instead of 1 s; the
     * services close an idle connection only after Quarkus' 30 minutes, so the gateway never holds one its service has
     * closed.
     */
    private static final int POOL_CLEANER_PERIOD_MS = 15_000;
    /**
     * The request-context entry Quarkus' HTTP server metrics read the {@code uri} label from. The gateway handles every
     * path in one Vert.x route, so without it the label would be the raw path, full of other tenants' ids
     * (docs/decisions.md §27).
     */
    static final String METRICS_URI_TEMPLATE = "UrlPathTemplate";
    /** The {@code uri} label of every request that matches no documented path (any method). */
    static final String UNMATCHED_LABEL = "/{unmatched}";

    /** An authenticated caller and the identity token that will speak for it downstream. */
    private record Admitted(Identity identity, String token) {
    }

    /** What the proxy interceptor needs to know about one request in flight. */
    record Forwarding(Buffer body, String idempotencyScope, String idempotencyKey) {
    }

    /**
     * One admitted request not answered yet: what the proxy interceptor needs once it is forwarded, and, should a stop
     * cut it off, what to say about it ({@link #unanswered}).
     */
    static final class InFlight {
        final String method;
        final String template;
        final long since = System.nanoTime();
        volatile String stage = "authenticating";
        volatile Forwarding forwarding;

        InFlight(String method, String template) {
            this.method = method;
            this.template = template;
        }
    }

    private final RouteTable routes;
    private final Authenticator authenticator;
    private final TokenMinter minter;
    private final RateLimiter rateLimiter;
    private final ClientAddress clientAddress;
    private final IdempotencyStore idempotency;
    private final GatewayConfig config;
    private final ObjectMapper mapper;
    private final UpstreamTimers upstreamTimers;
    /**
     * One HTTP client (so one connection pool) and its proxies per event loop, keyed by the event loop of the request
     * being forwarded. Vert.x' client pool hands any idle connection to any requester (most recently used first,
     * whatever event loop it lives on) and then passes every read of that connection over to the requester's event
     * loop: two thread hand-offs per forwarded request and two connections for one client's consecutive requests. A
     * pool per event loop only ever opens connections on its own event loop (the pool connects on the requester's
     * loop), so a forwarded request and its answer stay on the thread that read the client's request
     * (docs/decisions.md §92).
     */
    private final Map<EventLoop, Map<Downstream, HttpProxy>> proxies = new ConcurrentHashMap<>();
    private final Map<HttpServerRequest, InFlight> inFlight = new ConcurrentHashMap<>();
    private Vertx vertx;

    public GatewayRouter(RouteTable routes, Authenticator authenticator, TokenMinter minter, RateLimiter rateLimiter,
            ClientAddress clientAddress, IdempotencyStore idempotency, GatewayConfig config, ObjectMapper mapper,
            UpstreamTimers upstreamTimers) {
        this.routes = routes;
        this.authenticator = authenticator;
        this.minter = minter;
        this.rateLimiter = rateLimiter;
        this.clientAddress = clientAddress;
        this.idempotency = idempotency;
        this.config = config;
        this.mapper = mapper;
        this.upstreamTimers = upstreamTimers;
    }

    void install(@Observes Router router, Vertx vertx) {
        this.vertx = vertx;
        router.route().order(-10).handler(this::handle);
    }

    /** The proxy to {@code service} for a request read on {@code context}'s event loop. */
    private HttpProxy proxy(ContextInternal context, Downstream service) {
        EventLoop loop = (context != null ? context : (ContextInternal) vertx.getOrCreateContext()).nettyEventLoop();
        return proxies.computeIfAbsent(loop, l -> proxiesForOneEventLoop()).get(service);
    }

    private Map<Downstream, HttpProxy> proxiesForOneEventLoop() {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout(2_000)
                .setIdleTimeout((int) config.downstreamTimeout().toSeconds())
                .setKeepAlive(true)
                .setMaxPoolSize(64)
                .setPoolCleanerPeriod(POOL_CLEANER_PERIOD_MS));
        Map<Downstream, HttpProxy> forLoop = new EnumMap<>(Downstream.class);
        for (Downstream service : Downstream.values()) {
            URI base = URI.create(baseUrl(service));
            HttpProxy proxy = HttpProxy.reverseProxy(client).origin(base.getPort(), base.getHost());
            proxy.addInterceptor(new Forwarder(service));
            forLoop.put(service, proxy);
        }
        return forLoop;
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
        String requestId = requestId(request.headers().get(REQUEST_ID));
        request.headers().set(REQUEST_ID, requestId);
        request.response().putHeader(REQUEST_ID, requestId);

        RouteTable.Match match = routes.match(request.method().name(), path);
        labelMetrics(request, match instanceof RouteTable.Found found ? found.route().template() : UNMATCHED_LABEL);
        switch (match) {
            case RouteTable.NoRoute none -> respond(ctx, ApiException.notFound("Path " + path));
            case RouteTable.WrongMethod wrong -> {
                request.response().putHeader("Allow", String.join(", ", wrong.allowed()));
                respond(ctx, new ApiException(405, "method_not_allowed", "Method not allowed",
                        request.method().name() + " is not supported on this path.", null, null));
            }
            case RouteTable.Found found -> admit(ctx, found.route(), requestId);
        }
    }

    private void admit(RoutingContext ctx, Route route, String requestId) {
        HttpServerRequest request = ctx.request();
        boolean multipart = isMultipart(request);
        long limit = multipart ? config.limits().multipartBytes() : config.limits().jsonBytes();
        if (declaredLength(request) > limit) {
            tooLarge(ctx, limit);
            return;
        }
        if (multipart && unknownLength(request)) {
            // An upload is streamed to its service as it arrives, which needs its length over HTTP/2 (below).
            respond(ctx, new ApiException(411, "length_required", "Length required",
                    "A multipart upload over HTTP/2 must declare its Content-Length.", null, null));
            return;
        }
        request.pause();
        MultiMap headers = request.headers();
        String method = request.method().name();
        InFlight tracked = new InFlight(method, route.template());
        inFlight.put(request, tracked);
        ctx.addEndHandler(done -> inFlight.remove(request));
        Future<Admitted> admission = fromMemory(route, method, headers);
        if (admission == null) {
            admission = blocking(ctx, requestId, () -> {
                Identity identity = authenticator.authenticate(route.auth(), method, headers);
                return new Admitted(identity, minter.tokenFor(identity));
            });
        }
        admission.onComplete(auth -> {
                    if (auth.failed()) {
                        OptionalLong wait = rateLimiter.forAddress(clientAddress.of(request));
                        request.resume();
                        respond(ctx, wait.isPresent() ? tooManyRequests(wait.getAsLong()) : auth.cause());
                        return;
                    }
                    Admitted admitted = auth.result();
                    Identity identity = admitted.identity();
                    OptionalLong wait = rateLimit(route, identity, request);
                    if (wait.isPresent()) {
                        request.resume();
                        respond(ctx, tooManyRequests(wait.getAsLong()));
                        return;
                    }
                    if (multipart || (!hasBody(method) && !unknownLength(request))) {
                        forward(ctx, route, admitted, new Forwarding(null, null, null));
                    } else if (!hasBody(method)) {
                        // An HTTP/2 request may end its stream with an empty DATA frame (Java's HttpClient does),
                        // which the proxy would pipe to a service request of no declared length and not chunked:
                        // Vert.x refuses the write ("You must set the Content-Length header"), an uncaught ERROR.
                        // Read to its end, the request is forwarded with its length (docs/decisions.md §120).
                        tracked.stage = "reading its body";
                        readBody(ctx, limit).onSuccess(
                                body -> forward(ctx, route, admitted, new Forwarding(body, null, null)));
                    } else {
                        tracked.stage = "reading its body";
                        readBody(ctx, limit).onSuccess(body -> {
                            ApiException malformed = malformedJson(request, body);
                            if (malformed != null) {
                                respond(ctx, malformed);
                            } else {
                                withIdempotency(ctx, route, admitted, requestId, body);
                            }
                        });
                    }
                });
    }

    /**
     * The buckets one admitted request draws from (docs/decisions.md §31), narrowest first: the client address on
     * public paths; else the key, then, for a publishable key, the pair of key and client address, then the key's
     * account (all its keys together). The first empty bucket answers 429, and the wider ones are not charged: one
     * client refused on a publishable key does not use up its account's rate for the merchant's other customers.
     */
    private OptionalLong rateLimit(Route route, Identity identity, HttpServerRequest request) {
        if (route.auth() == AuthMode.PUBLIC) {
            return rateLimiter.forAddress(clientAddress.of(request));
        }
        OptionalLong wait = rateLimiter.forKey(identity.subject());
        if (wait.isEmpty() && KeyState.TYPE_PUBLISHABLE.equals(identity.keyType())) {
            wait = rateLimiter.forPublishableKeyAndAddress(identity.subject(), clientAddress.of(request));
        }
        if (wait.isEmpty() && identity.accountId() != null) {
            wait = rateLimiter.forAccount(identity.accountId());
        }
        return wait;
    }

    /**
     * The idempotency identity (docs/decisions.md §28): the account, the key and the merchant the request names
     * (X-MID or a sub-merchant publishable key), hashed to the store's fixed-width scope. Operator calls are scoped by
     * the operator's subject.
     */
    static String idempotencyScope(Identity identity) {
        return IdempotencyKeys.scope(identity.keyType(), identity.accountId(), identity.subject(),
                identity.merchantId(), identity.merchantRef());
    }

    /** POSTs with an Idempotency-Key go through the store; everything else is forwarded as is. */
    private void withIdempotency(RoutingContext ctx, Route route, Admitted admitted, String requestId, Buffer body) {
        HttpServerRequest request = ctx.request();
        Identity identity = admitted.identity();
        String key = request.getHeader(IDEMPOTENCY_KEY);
        if (key == null || !"POST".equals(request.method().name())) {
            forward(ctx, route, admitted, new Forwarding(body, null, null));
            return;
        }
        if (!IdempotencyKeys.valid(key)) {
            respond(ctx, ApiException.validation(IDEMPOTENCY_KEY, IdempotencyKeys.INVALID));
            return;
        }
        String scope = idempotencyScope(identity);
        stage(request, "checking its Idempotency-Key");
        String hash = KeyHash.of(request.method().name() + " " + request.uri() + "\n" + body.toString());
        blocking(ctx, requestId, () -> idempotency.begin(scope, key, hash)).onComplete(outcome -> {
            if (outcome.failed()) {
                respond(ctx, outcome.cause());
                return;
            }
            switch (outcome.result()) {
                case IdempotencyStore.Proceed p -> forward(ctx, route, admitted, new Forwarding(body, scope, key));
                case IdempotencyStore.Replay replay -> {
                    var response = ctx.response().setStatusCode(replay.status())
                            .putHeader("Idempotent-Replayed", "true");
                    if (replay.contentType() != null) {
                        response.putHeader("Content-Type", replay.contentType());
                    }
                    response.end(Buffer.buffer(replay.body() == null ? new byte[0] : replay.body()));
                }
                case IdempotencyStore.Mismatch m -> respond(ctx, new ApiException(422, "idempotency_key_reused",
                        "Unprocessable request", "This Idempotency-Key was used with a different request body.",
                        null, null));
                case IdempotencyStore.InFlight f -> respond(ctx, ApiException.conflict("idempotency_in_flight",
                        "A request with this Idempotency-Key is still being processed; retry shortly."));
            }
        });
    }

    private void forward(RoutingContext ctx, Route route, Admitted admitted, Forwarding forwarding) {
        HttpServerRequest request = ctx.request();
        InFlight tracked = inFlight.get(request);
        if (tracked == null) {
            // The client hung up before its request could go on (its end handler ran): nobody is left to answer, so
            // the service never sees the request, and an Idempotency-Key it holds is free again for the client's
            // retry (docs/decisions.md §117).
            LOG.debugf("%s %s not forwarded, the client went away", request.method(), route.template());
            if (forwarding.idempotencyKey() != null) {
                blocking(ctx, request.getHeader(REQUEST_ID), () -> {
                    idempotency.release(forwarding.idempotencyScope(), forwarding.idempotencyKey());
                    return null;
                }).onFailure(e -> LOG.warnf("releasing the Idempotency-Key of a request whose client went away failed"
                        + " (a retry gets 409 until the claim expires): %s", e.getMessage()));
            }
            return;
        }
        MultiMap headers = request.headers();
        CLIENT_IDENTITY_HEADERS.forEach(headers::remove);
        // Idempotency-Key goes on: transaction-service keeps it with the creations that move money, in their own
        // database transaction, for the requests whose answer this gateway loses (docs/decisions.md §112).
        headers.set("Authorization", "Bearer " + admitted.token());
        tracked.forwarding = forwarding;
        tracked.stage = "forwarded to " + route.service();
        proxy(contextOf(request), route.service()).handle(new ForwardedRequest(request, tracked));
    }

    private void stage(HttpServerRequest request, String stage) {
        InFlight tracked = inFlight.get(request);
        if (tracked != null) {
            tracked.stage = stage;
        }
    }

    /**
     * The requests admitted and not answered yet, oldest first, as "POST /transaction, forwarded to TRANSACTION, for
     * 5012 ms". Quarkus' stop waits up to {@code quarkus.shutdown.timeout} for them and, when they outlast it, logs
     * only that it timed out; {@link #stop} names them (docs/decisions.md §117).
     */
    List<String> unanswered() {
        long now = System.nanoTime();
        return inFlight.values().stream().sorted(Comparator.comparingLong(tracked -> tracked.since))
                .map(tracked -> tracked.method + " " + tracked.template + ", " + tracked.stage + ", for "
                        + (now - tracked.since) / 1_000_000 + " ms")
                .toList();
    }

    /**
     * Quarkus fires the stop after its wait for requests in flight: whatever is still here was cut off by the stop.
     * Logged at WARN, at most {@value #UNANSWERED_LOGGED} of them, with how many there were.
     */
    void stop(@Observes ShutdownEvent event) {
        List<String> left = unanswered();
        if (!left.isEmpty()) {
            LOG.warnf("%d requests unanswered at the stop, their clients will see the connection close: %s",
                    left.size(), String.join("; ", left.subList(0, Math.min(UNANSWERED_LOGGED, left.size()))));
        }
    }

    /** Reads a JSON body of at most {@code limit} bytes; past it the client gets a 413 at once. */
    private Future<Buffer> readBody(RoutingContext ctx, long limit) {
        HttpServerRequest request = ctx.request();
        Promise<Buffer> promise = Promise.promise();
        Buffer body = Buffer.buffer();
        request.handler(chunk -> {
            if (promise.future().isComplete()) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                promise.fail("too large");
                tooLarge(ctx, limit);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(v -> promise.tryComplete(body));
        request.exceptionHandler(promise::tryFail);
        request.resume();
        return promise.future();
    }

    /**
     * A JSON body must be exactly one JSON value under the suite's rules (JsonSettings: no trailing content, no
     * duplicate keys, no NaN, UTF-8 only). The gateway checks it before Idempotency-Key and before any service, so
     * every endpoint answers a broken body alike, with the same problem the services' own mapping gives.
     */
    private ApiException malformedJson(HttpServerRequest request, Buffer body) {
        String type = request.getHeader("Content-Type");
        if (body.length() == 0 || type == null) {
            return null;
        }
        String mediaType = type.split(";", 2)[0].strip().toLowerCase();
        if (!mediaType.equals("application/json") && !mediaType.endsWith("+json")) {
            return null;
        }
        try {
            mapper.readTree(body.getBytes());
            return null;
        } catch (JsonProcessingException e) {
            Problem problem = JsonProblems.of(e);
            return new ApiException(problem.status(), problem.code(), problem.title(), problem.detail(),
                    problem.errors(), null);
        } catch (java.io.IOException e) {
            return new ApiException(400, "malformed_json", "Malformed JSON", "The request body is not valid JSON.",
                    null, null);
        }
    }

    /**
     * The admission decided on the event loop when memory holds all it needs (a busy key: cached key and merchant, a
     * reusable identity token), else null and the caller decides it on a worker (docs/decisions.md §77). Saves two
     * thread hand-offs per request, which on saturated cores cost more latency than the work itself.
     */
    private Future<Admitted> fromMemory(Route route, String method, MultiMap headers) {
        try {
            Optional<Identity> identity = authenticator.fromMemory(route.auth(), method, headers);
            if (identity.isEmpty()) {
                return null;
            }
            return minter.recentTokenFor(identity.get())
                    .map(token -> Future.succeededFuture(new Admitted(identity.get(), token))).orElse(null);
        } catch (ApiException refused) {
            return Future.failedFuture(refused);
        }
    }

    private <T> Future<T> blocking(RoutingContext ctx, String requestId, Callable<T> work) {
        return ctx.vertx().executeBlocking(() -> {
            MDC.put("requestId", requestId);
            try {
                return work.call();
            } finally {
                MDC.remove("requestId");
            }
        }, false);
    }

    private static boolean hasBody(String method) {
        return "POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method);
    }

    private static boolean isMultipart(HttpServerRequest request) {
        String type = request.getHeader("Content-Type");
        return type != null && type.toLowerCase().startsWith("multipart/");
    }

    /**
     * An HTTP/2 request without Content-Length: its body's length is known only at its end. (Over HTTP/1.1 such a
     * request is chunked, and the proxy sends it on chunked; HTTP/2 has no chunked encoding.)
     */
    private static boolean unknownLength(HttpServerRequest request) {
        return request.version() == HttpVersion.HTTP_2 && request.getHeader("Content-Length") == null;
    }

    private static long declaredLength(HttpServerRequest request) {
        try {
            String length = request.getHeader("Content-Length");
            return length == null ? -1 : Long.parseLong(length.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Names the request's {@code uri} metrics label (docs/decisions.md §27); never the raw path. */
    private static void labelMetrics(HttpServerRequest request, String template) {
        Context context = contextOf(request);
        if (context != null) {
            context.putLocal(METRICS_URI_TEMPLATE, template);
        }
    }

    /** The Vert.x context (hence the event loop) the request was read on. */
    private static ContextInternal contextOf(HttpServerRequest request) {
        return (ContextInternal) (request instanceof HttpServerRequestInternal internal ? internal.context()
                : Vertx.currentContext());
    }

    /**
     * The request id a request goes by (docs/decisions.md: the client's {@code X-Request-Id} when it is safe to log,
     * else a new UUID); also the public API document's, which the gateway answers itself.
     */
    public static String requestId(String offered) {
        if (offered != null && offered.matches("[A-Za-z0-9._:-]{1,128}")) {
            return offered;
        }
        return newRequestId();
    }

    /**
     * A random (version 4) UUID for a request that brought no usable id. A request id names a request in the logs and
     * is no secret, so it is drawn from the thread's own generator: {@link UUID#randomUUID()} draws from the shared
     * SecureRandom, which reads /dev/urandom under a lock, and was 2% of the event loops' CPU under load
     * (docs/performance.md, twenty-fourth step).
     */
    static String newRequestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
        return new UUID(high, low).toString();
    }

    private static ApiException tooManyRequests(long retryAfter) {
        return new ApiException(429, "rate_limited", "Too many requests",
                "The rate limit was reached; retry after the number of seconds in Retry-After.", null, retryAfter);
    }

    private void tooLarge(RoutingContext ctx, long limit) {
        ctx.response().putHeader("Connection", "close");
        respond(ctx, new ApiException(413, "payload_too_large", "Payload too large",
                "The request body may be at most " + limit + " bytes.", null, null));
    }

    private void respond(RoutingContext ctx, Throwable failure) {
        if (ctx.response().ended()) {
            return;
        }
        ApiException problem;
        if (failure instanceof ApiException api) {
            problem = api;
        } else {
            LOG.error("gateway failure", failure);
            problem = ApiException.unavailable("The gateway could not handle the request; try again.",
                    RETRY_AFTER_SECONDS);
        }
        ProblemResponses.end(ctx.response(), mapper, problem);
    }

    /**
     * Hands the buffered JSON body to the proxy, turns a service that refuses the connection or does not answer
     * in time into a 503 problem with Retry-After, and records answers for Idempotency-Key replays.
     */
    private final class Forwarder implements ProxyInterceptor {
        private final Downstream service;

        Forwarder(Downstream service) {
            this.service = service;
        }

        @Override
        public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
            Forwarding forwarding = ((ForwardedRequest) context.request().proxiedRequest()).tracked.forwarding;
            if (forwarding.body() != null) {
                context.request().setBody(Body.body(forwarding.body()));
            }
            long sent = System.nanoTime();
            return context.sendRequest().map(response -> {
                upstreamTimers.answered(service, response.getStatusCode(), System.nanoTime() - sent);
                return response;
            }).recover(failure -> {
                if (context.request().proxiedRequest().response().closed()) {
                    // The client hung up with its request in flight and the proxy reset the service's stream: not a
                    // failing service (under load every closed connection logged this), and nobody to answer; nor
                    // is it timed, since the service never got to answer.
                    LOG.debugf("%s request dropped, the client went away: %s", service, failure.getMessage());
                } else {
                    LOG.warnf("%s service failed: %s", service, failure.getMessage());
                    upstreamTimers.unavailable(service, System.nanoTime() - sent);
                }
                Problem problem = ApiException.unavailable("A service behind the gateway is unavailable; retry later.",
                        RETRY_AFTER_SECONDS).toProblem();
                ProxyResponse response = context.request().response()
                        .setStatusCode(503)
                        .putHeader("Content-Type", Problem.MEDIA_TYPE)
                        .putHeader("Retry-After", String.valueOf(RETRY_AFTER_SECONDS))
                        .setBody(Body.body(ProblemResponses.body(mapper, problem)));
                return Future.succeededFuture(response);
            });
        }

        @Override
        public Future<Void> handleProxyResponse(ProxyContext context) {
            // The answer already carries the gateway's X-Request-Id (handle); the proxy adds the service's headers to
            // it, so the service's echo of the same id would make it appear twice.
            context.response().headers().remove(REQUEST_ID);
            // The request leaves inFlight through its end handler (admit), which runs once its answer is sent or
            // its connection closed: ForwardedRequest makes the proxy's reset of an answer it could not send close
            // the connection in a way that runs it (docs/decisions.md §118).
            InFlight tracked = ((ForwardedRequest) context.request().proxiedRequest()).tracked;
            Forwarding forwarding = tracked.forwarding;
            if (forwarding.idempotencyKey() == null) {
                return Future.<Void>succeededFuture().compose(v -> context.sendResponse());
            }
            tracked.stage = "storing " + service + "'s answer for Idempotency-Key replays";
            ProxyResponse response = context.response();
            return collect(response.getBody().stream()).compose(bytes -> {
                response.setBody(Body.body(bytes));
                int status = response.getStatusCode();
                String type = response.headers().get("Content-Type");
                return vertx.<Void>executeBlocking(() -> {
                    if (status >= 500) {
                        idempotency.release(forwarding.idempotencyScope(), forwarding.idempotencyKey());
                    } else {
                        // The client gets the secrets once, in this answer; the stored copy never has them (§28).
                        idempotency.complete(forwarding.idempotencyScope(), forwarding.idempotencyKey(), status, type,
                                IssuedSecrets.withoutSecrets(mapper, type, bytes.getBytes()));
                    }
                    return null;
                }, false).compose(v -> context.sendResponse());
            });
        }
    }

    private static Future<Buffer> collect(ReadStream<Buffer> stream) {
        Promise<Buffer> promise = Promise.promise();
        Buffer all = Buffer.buffer();
        stream.handler(all::appendBuffer);
        stream.endHandler(v -> promise.tryComplete(all));
        stream.exceptionHandler(promise::tryFail);
        stream.resume();
        return promise.future();
    }
}
