package dev.cryptopay.gateway.routing;

import java.util.List;
import java.util.Set;

/**
 * One documented path: the methods it serves, the downstream service that owns it, and how callers authenticate.
 *
 * @param template the path as documented, with {@code {param}} placeholders
 * @param segments the template's segments between its slashes ({@code ["transaction", "{transactionID}"]})
 */
public record Route(Set<String> methods, String template, List<String> segments, Downstream service, AuthMode auth) {

    /** Builds a route from a documented template; each {@code {param}} matches one path segment. */
    public static Route of(String methods, String template, Downstream service, AuthMode auth) {
        return new Route(Set.of(methods.split(",")), template, List.of(template.substring(1).split("/")), service,
                auth);
    }

    /**
     * Whether the path has the template's segments: each literal one as written, each {@code {param}} as one or more
     * characters other than a slash (what the regular expression {@code [^/]+} in its place would match). Compared
     * segment by segment instead of with a {@link java.util.regex.Pattern}: the gateway matches every request, and a
     * matcher per candidate route was most of its route lookup's CPU (docs/performance.md, twenty-fourth step).
     */
    public boolean matchesPath(String path) {
        int at = 0; // the slash that begins the next segment
        for (String segment : segments) {
            if (at >= path.length() || path.charAt(at) != '/') {
                return false;
            }
            int end = path.indexOf('/', at + 1);
            if (end < 0) {
                end = path.length();
            }
            int length = end - at - 1;
            boolean parameter = segment.charAt(0) == '{';
            if (parameter ? length == 0
                    : length != segment.length() || !path.regionMatches(at + 1, segment, 0, length)) {
                return false;
            }
            at = end;
        }
        return at == path.length();
    }
}
