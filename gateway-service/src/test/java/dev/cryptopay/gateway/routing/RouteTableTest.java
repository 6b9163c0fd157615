package dev.cryptopay.gateway.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteTableTest {

    private final RouteTable table = new RouteTable();

    @ParameterizedTest(name = "{0} {1} -> {2} {3}")
    @CsvSource({
            "GET, /assets, MERCHANT, PUBLIC",
            "GET, /config/countries, MERCHANT, PUBLIC",
            "POST, /operator/accounts, MERCHANT, OPERATOR",
            "PUT, /operator/rates, TRANSACTION, OPERATOR",
            "POST, /accounts/a1/keys, MERCHANT, API_KEY",
            "GET, /accounts/a1/keys, MERCHANT, API_KEY",
            "DELETE, /accounts/a1/keys/k1, MERCHANT, API_KEY",
            "POST, /accounts/a1/merchants, MERCHANT, API_KEY",
            "GET, /accounts/a1/merchants, MERCHANT, API_KEY",
            "PUT, /accounts/a1/merchants/m1, MERCHANT, API_KEY",
            "GET, /accounts/a1/merchants/m1, MERCHANT, API_KEY",
            "DELETE, /accounts/a1/merchants/m1, MERCHANT, API_KEY",
            "POST, /accounts/a1/merchants/m1/uploadlogo, MERCHANT, API_KEY",
            "GET, /accounts/a1/config, MERCHANT, API_KEY",
            "PUT, /accounts/a1/config, MERCHANT, API_KEY",
            "GET, /merchant/config, MERCHANT, PUBLISHABLE",
            "GET, /configuration, MERCHANT, PUBLISHABLE",
            "POST, /transaction, TRANSACTION, PUBLISHABLE_OR_API_KEY_AND_MID",
            "GET, /transaction/t1, TRANSACTION, PUBLISHABLE_OR_API_KEY_AND_MID",
            "GET, /transaction/t1/qr, TRANSACTION, PUBLISHABLE_OR_API_KEY_AND_MID",
            "POST, /transaction/t1/verification, TRANSACTION, PUBLISHABLE",
            "POST, /transaction/t1/payment, TRANSACTION, PUBLISHABLE",
            "PATCH, /transaction/t1/cancel, TRANSACTION, API_KEY_AND_MID",
            "GET, /transactions, TRANSACTION, API_KEY_AND_ACCOUNT_HEADER",
            "POST, /account/a1/transaction/t1/refund, TRANSACTION, API_KEY_AND_MID",
            "POST, /sandbox/chain/transfers, TRANSACTION, API_KEY",
            "POST, /sandbox/chain/blocks, TRANSACTION, API_KEY",
            "POST, /subscriptionplans, SUBSCRIPTION, API_KEY",
            "GET, /subscriptionplans, SUBSCRIPTION, API_KEY",
            "GET, /subscriptionplans/p1, SUBSCRIPTION, API_KEY",
            "POST, /subscriptions, SUBSCRIPTION, API_KEY",
            "GET, /subscriptions, SUBSCRIPTION, API_KEY",
            "GET, /subscriptions/s1, SUBSCRIPTION, API_KEY",
            "PUT, /subscriptions/s1/pause, SUBSCRIPTION, API_KEY",
            "PUT, /subscriptions/s1/resume, SUBSCRIPTION, API_KEY",
            "DELETE, /subscriptions/s1, SUBSCRIPTION, API_KEY",
            "GET, /subscriptions/s1/events, SUBSCRIPTION, API_KEY",
            "POST, /subscriptionpayments, SUBSCRIPTION, API_KEY",
            "GET, /subscriptionpayments, SUBSCRIPTION, API_KEY",
            "GET, /subscriptionpayments/p1, SUBSCRIPTION, API_KEY",
            "PUT, /subscriptionpayments/s1/retry, SUBSCRIPTION, API_KEY",
            "POST, /accounts/a1/webhooks, WEBHOOK, API_KEY",
            "GET, /accounts/a1/webhooks, WEBHOOK, API_KEY",
            "PUT, /accounts/a1/webhooks/w1, WEBHOOK, API_KEY",
            "DELETE, /accounts/a1/webhooks/w1, WEBHOOK, API_KEY",
            "POST, /accounts/a1/webhooks/w1/rotate-secret, WEBHOOK, API_KEY",
            "GET, /accounts/a1/webhooks/w1/deliveries, WEBHOOK, API_KEY",
            "POST, /accounts/a1/webhooks/w1/deliveries/d1/redeliver, WEBHOOK, API_KEY",
            "GET, /accounts/a1/reporting/summary, REPORTING, API_KEY",
            "GET, /accounts/a1/transactions, REPORTING, API_KEY",
            "GET, /accounts/a1/transactions/t1, REPORTING, API_KEY",
            "GET, /accounts/a1/reporting/settlements, REPORTING, API_KEY",
            "GET, /operator/reporting/gaps, REPORTING, OPERATOR",
            "POST, /operator/reporting/rebuild, REPORTING, OPERATOR",
            "GET, /operator/reporting/rebuild, REPORTING, OPERATOR",
    })
    void everyDocumentedPathReachesItsOwner(String method, String path, Downstream owner, AuthMode auth) {
        RouteTable.Found found = assertInstanceOf(RouteTable.Found.class, table.match(method, path));
        assertEquals(owner, found.route().service());
        assertEquals(auth, found.route().auth());
    }

    @ParameterizedTest
    @CsvSource({ "GET, /", "GET, /nope", "GET, /accounts/a1/keys/k1/extra", "GET, /transaction/t1/cancel/x",
            "GET, /accounts//keys" })
    void unknownPathsHaveNoRoute(String method, String path) {
        assertInstanceOf(RouteTable.NoRoute.class, table.match(method, path));
    }

    @ParameterizedTest
    @CsvSource({ "DELETE, /assets, GET", "PUT, /transaction/t1/cancel, PATCH" })
    void aKnownPathWithAnotherMethodListsTheAllowedOnes(String method, String path, String allowed) {
        RouteTable.WrongMethod wrong = assertInstanceOf(RouteTable.WrongMethod.class, table.match(method, path));
        assertEquals(List.of(allowed), wrong.allowed());
    }

    /**
     * Matching only the routes of the path's shape answers exactly what trying every route's pattern answers, for each
     * template filled in and for near misses of it (a trailing slash, a segment more or less, an empty segment).
     */
    @Test
    void matchingByShapeAnswersWhatEveryPatternWould() {
        List<String> methods = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
        List<String> paths = new ArrayList<>(List.of("/", "", "//", "/x", "x/y", "/accounts", "/accounts/"));
        for (Route route : table.routes()) {
            assertTrue(route.template().matches("/[a-z]+(/.*)?"), "starts with a literal segment: " + route.template());
            String filled = route.template().replaceAll("\\{[^/]+}", "id-1");
            paths.addAll(List.of(filled, filled + "/", filled + "/extra", filled + "//", filled.replace("/id-1", "//"),
                    filled.substring(0, filled.lastIndexOf('/') + 1) + "other"));
        }
        for (String path : paths) {
            for (String method : methods) {
                // every route's pattern tried in order: the table's answer before the shape index
                RouteTable.Match everyPattern = RouteTable.matchAmong(table.routes(), method,
                        RouteTable.normalize(path));
                assertEquals(everyPattern, table.match(method, path), method + " " + path);
            }
        }
    }

    /**
     * A route compares the path segment by segment; it answers what the template's regular expression (each
     * {@code {param}} as {@code [^/]+}) answers, for every template filled in with ids of any characters but a slash and
     * for near misses of it.
     */
    @Test
    void segmentMatchingAnswersWhatTheTemplatesPatternWould() {
        List<String> paths = new ArrayList<>(List.of("/", "", "//", "/x", "x/y", "/accounts", "/accounts/", "accounts"));
        for (Route route : table.routes()) {
            for (String id : List.of("id-1", "x", "%2F", "a.b:c", "9eea1109-e4f4-40a7-bf66-d674c39edcb7")) {
                String filled = route.template().replaceAll("\\{[^/]+}", id);
                paths.addAll(List.of(filled, filled + "/", filled + "/extra", filled + "//", "/" + filled,
                        filled.replace("/" + id, "//"), filled.substring(0, filled.length() - 1),
                        filled.substring(0, filled.lastIndexOf('/') + 1) + "other", filled.toUpperCase()));
            }
        }
        int matched = 0;
        for (Route route : table.routes()) {
            Pattern pattern = Pattern.compile(route.template().replaceAll("\\{[^/]+}", "[^/]+"));
            for (String path : paths) {
                boolean expected = pattern.matcher(path).matches();
                assertEquals(expected, route.matchesPath(path), route.template() + " against " + path);
                matched += expected ? 1 : 0;
            }
        }
        assertTrue(matched >= table.routes().size() * 5, "each template matched its filled-in paths: " + matched);
    }
}
