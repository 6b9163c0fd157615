package dev.cryptopay.gateway.routing;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * One documented path: the methods it serves, the downstream service that owns it, and how callers authenticate.
 *
 * @param template the path as documented, with {@code {param}} placeholders
 */
public record Route(Set<String> methods, String template, Pattern pattern, Downstream service, AuthMode auth) {

    /** Builds a route from a documented template; each {@code {param}} matches one path segment. */
    public static Route of(String methods, String template, Downstream service, AuthMode auth) {
        String regex = template.replaceAll("\\{[^/]+}", "[^/]+");
        return new Route(Set.of(methods.split(",")), template, Pattern.compile(regex), service, auth);
    }

    public boolean matchesPath(String path) {
        return pattern.matcher(path).matches();
    }
}
