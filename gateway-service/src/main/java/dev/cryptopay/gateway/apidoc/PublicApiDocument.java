package dev.cryptopay.gateway.apidoc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.cryptopay.gateway.limits.ClientAddress;
import dev.cryptopay.gateway.limits.RateLimiter;
import dev.cryptopay.gateway.proxy.GatewayRouter;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.problem.ProblemResponses;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.OptionalLong;

/**
 * Serves the public API description, {@code docs/openapi.yaml}, at {@code GET /openapi} without a key: YAML, or JSON
 * when the client prefers {@code application/json}, and always JSON at {@code /openapi.json}. The build copies the
 * committed file into the classpath ({@code public-api/openapi.yaml}, see this module's pom), so there is one copy
 * in git. These two paths are the gateway's own: they are registered before the route table's handler and never
 * reach a service; like the public lookups they draw on the client address's rate limit.
 */
@ApplicationScoped
public class PublicApiDocument {

    /** The paths this class serves; the route table holds every other path. */
    public static final List<String> PATHS = List.of("/openapi", "/openapi.json");
    /** Where the build puts {@code docs/openapi.yaml} on the classpath. */
    public static final String RESOURCE = "public-api/openapi.yaml";
    static final String YAML = "application/yaml";
    static final String JSON = "application/json";
    private static final String REQUEST_ID = GatewayRouter.REQUEST_ID;

    private final RateLimiter rateLimiter;
    private final ClientAddress clientAddress;
    private final ObjectMapper mapper;
    private final Buffer yaml;
    private final Buffer json;

    public PublicApiDocument(RateLimiter rateLimiter, ClientAddress clientAddress, ObjectMapper mapper) {
        this.rateLimiter = rateLimiter;
        this.clientAddress = clientAddress;
        this.mapper = mapper;
        byte[] document = read();
        this.yaml = Buffer.buffer(document);
        try {
            this.json = Buffer.buffer(mapper.writeValueAsBytes(new YAMLMapper().readTree(document)));
        } catch (IOException e) {
            throw new UncheckedIOException("the public API description " + RESOURCE + " is not valid YAML", e);
        }
    }

    void install(@Observes Router router) {
        // Before the route table's catch-all handler (order -10), which answers 404 for any path it does not route.
        // Content negotiation by Vert.x (Accept with weights): YAML, the committed form, unless JSON is preferred;
        // no Accept header gives the first, YAML.
        router.get(PATHS.get(0)).order(-21).produces(YAML).produces(JSON).handler(ctx -> {
            boolean asJson = JSON.equals(ctx.getAcceptableContentType());
            respond(ctx, asJson ? JSON : YAML, asJson ? json : yaml);
        });
        // An Accept header naming neither (text/html, say) still gets YAML: the document exists in these two forms
        // only, and a 406 would help no one.
        router.get(PATHS.get(0)).order(-20).handler(ctx -> respond(ctx, YAML, yaml));
        router.get(PATHS.get(1)).order(-20).handler(ctx -> respond(ctx, JSON, json));
    }

    private void respond(RoutingContext ctx, String type, Buffer body) {
        ctx.response().putHeader(REQUEST_ID, GatewayRouter.requestId(ctx.request().getHeader(REQUEST_ID)));
        OptionalLong wait = rateLimiter.forAddress(clientAddress.of(ctx.request()));
        if (wait.isPresent()) {
            ProblemResponses.end(ctx.response(), mapper, new ApiException(429, "rate_limited", "Too many requests",
                    "The rate limit was reached; retry after the number of seconds in Retry-After.", null,
                    wait.getAsLong()));
            return;
        }
        ctx.response().putHeader("Content-Type", type + "; charset=utf-8")
                .putHeader("Cache-Control", "public, max-age=300")
                .end(body);
    }

    private static byte[] read() {
        try (InputStream in = PublicApiDocument.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath: the build copies "
                        + "docs/openapi.yaml there (gateway-service/pom.xml, maven-resources-plugin)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
