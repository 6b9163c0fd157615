package dev.cryptopay.gateway.proxy;

import dev.cryptopay.gateway.routing.Downstream;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How long each service behind the gateway took to answer a forwarded request: from the moment the proxy asks its pool
 * for a connection until the service's status line and headers are in (Prometheus: {@code
 * gateway_upstream_requests_seconds}, tags {@code service} and {@code outcome}). Beside {@code
 * http_server_requests_seconds} of the same request it splits the gateway's own time from the service's, which until
 * now took a packet capture (docs/performance.md, thirtieth step). The outcome is the class of the service's status
 * ({@code SUCCESS}, {@code REDIRECTION}, {@code CLIENT_ERROR}, {@code SERVER_ERROR}, as Quarkus names the server's) or
 * {@code UNAVAILABLE} when the service refused the connection or did not answer in time (the client got a 503).
 * Every timer is made once at start-up (so each is scraped, at zero, before its first request): recording one is a map
 * read and an atomic add on the event loop.
 */
@Startup
@ApplicationScoped
public class UpstreamTimers {

    static final String NAME = "gateway.upstream.requests";
    static final String UNAVAILABLE = "UNAVAILABLE";
    /** The outcome of a status by its hundreds digit (index 0 and anything over 5 count as SERVER_ERROR). */
    private static final String[] OUTCOMES = {"SERVER_ERROR", "INFORMATIONAL", "SUCCESS", "REDIRECTION",
        "CLIENT_ERROR", "SERVER_ERROR"};

    private final Map<Downstream, Timer[]> byStatusClass = new EnumMap<>(Downstream.class);
    private final Map<Downstream, Timer> unavailable = new EnumMap<>(Downstream.class);

    public UpstreamTimers(MeterRegistry registry) {
        for (Downstream service : Downstream.values()) {
            Timer[] timers = new Timer[OUTCOMES.length];
            for (int i = 0; i < OUTCOMES.length; i++) {
                timers[i] = timer(registry, service, OUTCOMES[i]);
            }
            byStatusClass.put(service, timers);
            unavailable.put(service, timer(registry, service, UNAVAILABLE));
        }
    }

    private static Timer timer(MeterRegistry registry, Downstream service, String outcome) {
        return Timer.builder(NAME)
                .description("Time a service behind the gateway took to answer a forwarded request (until its headers)")
                .tag("service", service.name().toLowerCase(Locale.ROOT))
                .tag("outcome", outcome)
                .register(registry);
    }

    /** The service answered {@code status} {@code nanos} after the request was handed to the proxy. */
    void answered(Downstream service, int status, long nanos) {
        int hundreds = status / 100;
        byStatusClass.get(service)[hundreds >= 1 && hundreds <= 5 ? hundreds : 0].record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The service could not be reached or did not answer in time. */
    void unavailable(Downstream service, long nanos) {
        unavailable.get(service).record(nanos, TimeUnit.NANOSECONDS);
    }
}
