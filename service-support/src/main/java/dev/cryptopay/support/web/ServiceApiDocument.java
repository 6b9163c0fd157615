package dev.cryptopay.support.web;

import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/**
 * Serves the service's own OpenAPI document on the management port at {@code /q/openapi}, as the SmallRye OpenAPI
 * extension would: YAML, or JSON for {@code ?format=json}, for a client that accepts {@code application/json}, and at
 * {@code /q/openapi.json} ({@code .yaml} and {@code .yml} always YAML).
 *
 * <p>Why not the extension itself: it rebuilds its document at every start (reads the build's copy, filters it, writes
 * it out as JSON and YAML), 130-290 ms of each service's start whatever its configuration (docs/performance.md,
 * thirty-eighth step), for an endpoint only an operator reads. So the extension is on each service's <em>test</em>
 * class path only: the module's Quarkus tests generate {@code docs/openapi/<service>/openapi.{json,yaml}} (the
 * committed documents, {@code quarkus.smallrye-openapi.store-schema-directory}), the packaging copies them into
 * {@code service-api/} on the class path (the parent pom's {@code service-module} profile, after the tests)
 * and this class reads them on the first request, not at the start.
 *
 * <p>In the modules' own tests the extension is present and serves the path itself; this class then stays out of its
 * way. Hand-written because what it does is read two files and pick one of them.
 */
@ApplicationScoped
public class ServiceApiDocument {

    /** The paths served, as the extension serves them on the management port. */
    public static final List<String> PATHS = List.of("/q/openapi", "/q/openapi.json", "/q/openapi.yaml",
            "/q/openapi.yml");
    /** Where the packaging puts the committed documents on the class path. */
    public static final String RESOURCE_DIRECTORY = "service-api/";
    static final String EXTENSION_CLASS = "io/quarkus/smallrye/openapi/runtime/OpenApiDocumentService.class";
    static final String JSON = "application/json;charset=UTF-8";
    static final String YAML = "application/yaml;charset=UTF-8";

    private volatile Documents documents;

    void install(@Observes ManagementInterface management) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader.getResource(EXTENSION_CLASS) != null) {
            return; // the extension is on the class path (the module's tests) and serves the path
        }
        Router router = management.router();
        for (String path : PATHS) {
            // blocking: the first request reads the class path (once; every later one answers from memory)
            router.route(path).method(HttpMethod.GET).method(HttpMethod.HEAD).blockingHandler(this::serve, false);
        }
    }

    void serve(RoutingContext context) {
        Documents loaded = documents();
        boolean json = wantsJson(context.normalizedPath(), context.request().getParam("format"),
                context.request().getHeader(HttpHeaders.ACCEPT));
        Buffer body = json ? loaded.json() : loaded.yaml();
        if (body == null) {
            context.response().setStatusCode(404).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain;charset=UTF-8")
                    .end("this build carries no OpenAPI document (" + RESOURCE_DIRECTORY + ")");
            return;
        }
        context.response().putHeader(HttpHeaders.CONTENT_TYPE, json ? JSON : YAML).end(body);
    }

    /** The extension's choice: the path's suffix first, then the {@code format} parameter, then the Accept header. */
    static boolean wantsJson(String path, String format, String accept) {
        if (path.endsWith(".json")) {
            return true;
        }
        if (path.endsWith(".yaml") || path.endsWith(".yml")) {
            return false;
        }
        if (format != null) {
            return format.equalsIgnoreCase("json");
        }
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/json");
    }

    private Documents documents() {
        Documents loaded = documents;
        if (loaded == null) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            loaded = new Documents(read(loader, "openapi.json"), read(loader, "openapi.yaml"));
            documents = loaded;
        }
        return loaded;
    }

    private static Buffer read(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(RESOURCE_DIRECTORY + name)) {
            return in == null ? null : Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + RESOURCE_DIRECTORY + name, e);
        }
    }

    private record Documents(Buffer json, Buffer yaml) {
    }
}
