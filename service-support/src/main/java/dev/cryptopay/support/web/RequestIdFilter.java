package dev.cryptopay.support.web;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Carries the gateway's {@code X-Request-Id} into the logging context (every log line shows it as
 * {@code req=…}) and back on the response.
 */
public class RequestIdFilter {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "requestId";

    @ServerRequestFilter(preMatching = true)
    public void enter(ContainerRequestContext request) {
        String id = request.getHeaderString(HEADER);
        if (id != null && !id.isBlank()) {
            MDC.put(MDC_KEY, id);
        }
    }

    @ServerResponseFilter
    public void leave(ContainerRequestContext request, ContainerResponseContext response) {
        String id = request.getHeaderString(HEADER);
        if (id != null && !id.isBlank()) {
            response.getHeaders().putSingle(HEADER, id);
        }
        MDC.remove(MDC_KEY);
    }
}
