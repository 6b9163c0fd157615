package dev.cryptopay.gateway.routing;

import static dev.cryptopay.gateway.routing.AuthMode.API_KEY;
import static dev.cryptopay.gateway.routing.AuthMode.API_KEY_AND_ACCOUNT_HEADER;
import static dev.cryptopay.gateway.routing.AuthMode.API_KEY_AND_MID;
import static dev.cryptopay.gateway.routing.AuthMode.OPERATOR;
import static dev.cryptopay.gateway.routing.AuthMode.PUBLIC;
import static dev.cryptopay.gateway.routing.AuthMode.PUBLISHABLE;
import static dev.cryptopay.gateway.routing.AuthMode.PUBLISHABLE_OR_API_KEY_AND_MID;
import static dev.cryptopay.gateway.routing.Downstream.MERCHANT;
import static dev.cryptopay.gateway.routing.Downstream.REPORTING;
import static dev.cryptopay.gateway.routing.Downstream.SUBSCRIPTION;
import static dev.cryptopay.gateway.routing.Downstream.TRANSACTION;
import static dev.cryptopay.gateway.routing.Downstream.WEBHOOK;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every path of the interface document and of docs/decisions.md §4, §7, §9 and §10, with its owner and auth mode.
 * This table is the gateway's whole routing knowledge: a path that is not here is a 404 from the gateway.
 */
@ApplicationScoped
public class RouteTable {

    /** Outcome of matching a request: the route, or why there is none. */
    public sealed interface Match {
    }

    public record Found(Route route) implements Match {
    }

    /** The path exists, not with this method. */
    public record WrongMethod(List<String> allowed) implements Match {
    }

    public record NoRoute() implements Match {
    }

    private static final List<Route> ROUTES = List.of(
            // Public lookups
            Route.of("GET", "/assets", MERCHANT, PUBLIC),
            Route.of("GET", "/config/countries", MERCHANT, PUBLIC),
            // Operator (docs/decisions.md §4)
            Route.of("POST", "/operator/accounts", MERCHANT, OPERATOR),
            Route.of("PUT,PATCH", "/operator/accounts/{accountUUID}", MERCHANT, OPERATOR),
            Route.of("PUT,PATCH", "/operator/accounts/{accountUUID}/merchants/{merchantUUID}", MERCHANT, OPERATOR),
            Route.of("PUT", "/operator/rates", TRANSACTION, OPERATOR),
            Route.of("GET", "/operator/rates", TRANSACTION, OPERATOR),
            Route.of("PATCH", "/operator/refunds/{refundID}", TRANSACTION, OPERATOR),
            Route.of("PUT", "/operator/screening/lists/{list}", TRANSACTION, OPERATOR),
            Route.of("POST", "/operator/screening/lists/{list}/entries", TRANSACTION, OPERATOR),
            Route.of("GET", "/operator/screening/entries", TRANSACTION, OPERATOR),
            Route.of("GET,PUT", "/operator/screening/status", TRANSACTION, OPERATOR),
            Route.of("GET", "/operator/transactions/held", TRANSACTION, OPERATOR),
            Route.of("POST", "/operator/transactions/{transactionID}/release", TRANSACTION, OPERATOR),
            Route.of("POST", "/operator/transactions/{transactionID}/refund", TRANSACTION, OPERATOR),
            Route.of("POST", "/operator/transactions/{transactionID}/str", TRANSACTION, OPERATOR),
            // Keys, merchants, account configuration
            Route.of("POST,GET", "/accounts/{accountUUID}/keys", MERCHANT, API_KEY),
            Route.of("DELETE", "/accounts/{accountUUID}/keys/{keyUUID}", MERCHANT, API_KEY),
            Route.of("POST,GET", "/accounts/{accountUUID}/merchants", MERCHANT, API_KEY),
            Route.of("GET,PUT,DELETE", "/accounts/{accountUUID}/merchants/{merchantUUID}", MERCHANT, API_KEY),
            Route.of("POST", "/accounts/{accountUUID}/merchants/{merchantUUID}/uploadlogo", MERCHANT, API_KEY),
            Route.of("GET", "/accounts/{accountUUID}/merchants/{merchantUUID}/logo", MERCHANT, PUBLIC),
            Route.of("GET,PUT", "/accounts/{accountUUID}/config", MERCHANT, API_KEY),
            Route.of("GET", "/merchant/config", MERCHANT, PUBLISHABLE),
            Route.of("GET", "/configuration", MERCHANT, PUBLISHABLE),
            // Transactions, refunds, sandbox chain
            Route.of("POST", "/transaction", TRANSACTION, PUBLISHABLE_OR_API_KEY_AND_MID),
            Route.of("GET", "/transaction/{transactionID}", TRANSACTION, PUBLISHABLE_OR_API_KEY_AND_MID),
            Route.of("GET", "/transaction/{transactionID}/qr", TRANSACTION, PUBLISHABLE_OR_API_KEY_AND_MID),
            Route.of("POST", "/transaction/{transactionID}/verification", TRANSACTION, PUBLISHABLE),
            Route.of("POST", "/transaction/{transactionID}/verification/code", TRANSACTION, PUBLISHABLE),
            Route.of("POST", "/transaction/{transactionID}/verification/restore", TRANSACTION, PUBLISHABLE),
            Route.of("POST", "/transaction/{transactionID}/payment", TRANSACTION, PUBLISHABLE),
            Route.of("PATCH", "/transaction/{transactionID}/cancel", TRANSACTION, API_KEY_AND_MID),
            Route.of("GET", "/transactions", TRANSACTION, API_KEY_AND_ACCOUNT_HEADER),
            Route.of("POST", "/account/{accountID}/transaction/{transactionID}/refund", TRANSACTION, API_KEY_AND_MID),
            Route.of("POST", "/sandbox/chain/transfers", TRANSACTION, API_KEY),
            Route.of("POST", "/sandbox/chain/blocks", TRANSACTION, API_KEY),
            // Subscriptions
            Route.of("POST,GET", "/subscriptionplans", SUBSCRIPTION, API_KEY),
            Route.of("GET", "/subscriptionplans/{planId}", SUBSCRIPTION, API_KEY),
            Route.of("POST,GET", "/subscriptions", SUBSCRIPTION, API_KEY),
            Route.of("GET,DELETE", "/subscriptions/{subscriptionId}", SUBSCRIPTION, API_KEY),
            Route.of("PUT", "/subscriptions/{subscriptionId}/pause", SUBSCRIPTION, API_KEY),
            Route.of("PUT", "/subscriptions/{subscriptionId}/resume", SUBSCRIPTION, API_KEY),
            Route.of("GET", "/subscriptions/{subscriptionId}/events", SUBSCRIPTION, API_KEY),
            Route.of("POST,GET", "/subscriptionpayments", SUBSCRIPTION, API_KEY),
            Route.of("GET", "/subscriptionpayments/{paymentId}", SUBSCRIPTION, API_KEY),
            Route.of("PUT", "/subscriptionpayments/{subscriptionId}/retry", SUBSCRIPTION, API_KEY),
            // Webhooks (docs/decisions.md §7 adds the delivery log)
            Route.of("POST,GET", "/accounts/{accountUUID}/webhooks", WEBHOOK, API_KEY),
            Route.of("PUT,DELETE", "/accounts/{accountUUID}/webhooks/{webhookUUID}", WEBHOOK, API_KEY),
            Route.of("POST", "/accounts/{accountUUID}/webhooks/{webhookUUID}/rotate-secret", WEBHOOK, API_KEY),
            Route.of("GET", "/accounts/{accountUUID}/webhooks/{webhookUUID}/deliveries", WEBHOOK, API_KEY),
            Route.of("POST", "/accounts/{accountUUID}/webhooks/{webhookUUID}/deliveries/{deliveryId}/redeliver",
                    WEBHOOK, API_KEY),
            // Reporting
            Route.of("GET", "/accounts/{accountUUID}/reporting/summary", REPORTING, API_KEY),
            Route.of("GET", "/accounts/{accountUUID}/transactions", REPORTING, API_KEY),
            Route.of("GET", "/accounts/{accountUUID}/transactions/{transactionID}", REPORTING, API_KEY),
            Route.of("GET", "/accounts/{accountUUID}/reporting/settlements", REPORTING, API_KEY),
            Route.of("GET", "/operator/reporting/gaps", REPORTING, OPERATOR),
            Route.of("POST,GET", "/operator/reporting/rebuild", REPORTING, OPERATOR));

    /**
     * The routes by shape: a {@code {param}} matches one segment, never a slash, so a path can only match a template
     * with as many slashes and, since every template begins with a literal segment, the same first segment. Matching
     * tries only those few (one to five) instead of every template's pattern (65 matchers per request were a quarter
     * of what the gateway allocated under load; docs/performance.md, sixth step).
     */
    private static final Map<String, List<Route>> BY_SHAPE = ROUTES.stream()
            .collect(Collectors.groupingBy(r -> shape(r.template()), LinkedHashMap::new, Collectors.toList()));

    public List<Route> routes() {
        return ROUTES;
    }

    public Match match(String method, String path) {
        String normalized = normalize(path);
        return matchAmong(BY_SHAPE.getOrDefault(shape(normalized), List.of()), method, normalized);
    }

    /** The path without a trailing slash ("/" stays "/"). */
    static String normalize(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /**
     * The answer for a normalized path among {@code candidates}: the first route with the path and the method, or why
     * none. A plain loop for the answer every routed request gets: streams here were a third of the route lookup's CPU
     * (docs/performance.md, twenty-fourth step).
     */
    static Match matchAmong(List<Route> candidates, String method, String normalized) {
        for (Route route : candidates) {
            if (route.methods().contains(method) && route.matchesPath(normalized)) {
                return new Found(route);
            }
        }
        List<String> allowed = candidates.stream().filter(r -> r.matchesPath(normalized))
                .flatMap(r -> r.methods().stream()).sorted().distinct().toList();
        return allowed.isEmpty() ? new NoRoute() : new WrongMethod(allowed);
    }

    /** How many slashes the path has, and its first segment: "/transaction/t1" is "2/transaction". */
    static String shape(String path) {
        int slashes = 0;
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '/') {
                slashes++;
            }
        }
        int second = path.indexOf('/', 1);
        return slashes + "/" + (path.isEmpty() ? "" : path.substring(1, second < 0 ? path.length() : second));
    }
}
