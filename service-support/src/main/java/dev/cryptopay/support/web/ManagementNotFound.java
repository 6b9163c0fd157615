package dev.cryptopay.support.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.problem.ProblemResponses;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The management port's answer to a path it does not serve: the suite's problem+json 404 (docs/decisions.md §1,
 * §124), as on the API port, where Vert.x's router answered an HTML page ("Resource not found") to any method. A
 * probe or scraper pointed at a wrong path reads the same shape, with {@code code} {@code not_found}, wherever it
 * looks. The route is the router's last, so every endpoint Quarkus or this suite serves there answers first.
 */
@ApplicationScoped
public class ManagementNotFound {

    private final ObjectMapper mapper;

    public ManagementNotFound(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    void install(@Observes ManagementInterface management) {
        management.router().route().last().handler(this::notFound);
    }

    void notFound(RoutingContext context) {
        ProblemResponses.end(context.response(), mapper, ApiException.notFound("Path " + context.normalizedPath()));
    }
}
