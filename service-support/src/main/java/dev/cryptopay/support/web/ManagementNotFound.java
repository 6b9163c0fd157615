package dev.cryptopay.support.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptopay.support.problem.ApiException;
import dev.cryptopay.support.problem.Problem;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.http.HttpHeaders;
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
        Problem problem = ApiException.notFound("Path " + context.normalizedPath()).toProblem();
        String body;
        try {
            body = mapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem document did not convert", e);
        }
        context.response().setStatusCode(404).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE).end(body);
    }
}
