package dev.cryptopay.gateway.proxy;

import dev.cryptopay.gateway.routing.Downstream;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.http.Outcome;
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
 * now took a packet capture (docs/performance.md, thirtieth step). The outcome is Micrometer's {@link Outcome} of the
 * service's status, as Quarkus labels the server's ({@code SUCCESS}, {@code CLIENT_ERROR}, ...), or {@code UNAVAILABLE}
 * when the service refused the connection or did not answer in time (the client got a 503). Every timer is made once
 * at start-up (so each is scraped, at zero, before its first request): recording one is a map read and an atomic add
 * on the event loop.
 */
@Startup
@ApplicationScoped
public class UpstreamTimers {

    static final String NAME = "gateway.upstream.requests";
    static final String UNAVAILABLE = "UNAVAILABLE";

    /** One service's timers: one per outcome of an answer, and one for no answer. */
    private record ServiceTimers(Map<Outcome, Timer> answered, Timer unavailable) {
    }

    private final Map<Downstream, ServiceTimers> timers = new EnumMap<>(Downstream.class);

    public UpstreamTimers(MeterRegistry registry) {
        for (Downstream service : Downstream.values()) {
            Map<Outcome, Timer> answered = new EnumMap<>(Outcome.class);
            for (Outcome outcome : Outcome.values()) {
                answered.put(outcome, timer(registry, service, outcome.name()));
            }
            timers.put(service, new ServiceTimers(answered, timer(registry, service, UNAVAILABLE)));
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
        timers.get(service).answered().get(Outcome.forStatus(status)).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The service could not be reached or did not answer in time. */
    void unavailable(Downstream service, long nanos) {
        timers.get(service).unavailable().record(nanos, TimeUnit.NANOSECONDS);
    }
}
