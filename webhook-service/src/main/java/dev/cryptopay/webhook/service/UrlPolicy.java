package dev.cryptopay.webhook.service;

import dev.cryptopay.support.environment.Environment;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which webhook URLs the service accepts and where it may connect (decisions §7, SSRF).
 *
 * <p>Everywhere: an absolute {@code http} or {@code https} URL with a host, at most {@value #MAX_LENGTH} characters.
 * In production ({@code cryptopay.environment=production}) additionally: every address the host resolves to must be
 * public; loopback, private (RFC 1918, IPv6 unique-local), link-local, carrier-grade NAT, unspecified, multicast and
 * broadcast addresses are refused. The check runs when a webhook is saved and again before every attempt, and the
 * attempt connects to exactly the address that passed the check, so a DNS answer that changes in between (DNS
 * rebinding) cannot redirect a delivery into the internal network. The sandbox accepts local receivers.
 */
@ApplicationScoped
public class UrlPolicy {

    public static final int MAX_LENGTH = 2048;

    /** Where one attempt goes: the parsed URL and the address to connect to. */
    public record Destination(URI uri, String host, int port, boolean https, String pathAndQuery,
            InetAddress address) {
    }

    /** An attempt that may not or cannot be made; the message is recorded as the attempt's error. */
    public static class Refused extends Exception {
        public Refused(String message) {
            super(message, null, false, false);
        }
    }

    private final boolean production;

    public UrlPolicy(Environment environment) {
        this.production = environment.isProduction();
    }

    public boolean production() {
        return production;
    }

    /** Why {@code url} cannot be a webhook URL, or empty when it can. Resolves the host in production. */
    public Optional<String> problem(String url) {
        URI uri;
        try {
            uri = parse(url);
        } catch (Refused e) {
            return Optional.of(e.getMessage());
        }
        if (!production) {
            return Optional.empty();
        }
        try {
            String host = hostOf(uri);
            checkAddresses(host, resolve(host));
            return Optional.empty();
        } catch (Refused e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Resolves and checks the destination of one attempt (blocking: DNS). */
    public Destination destination(String url) throws Refused {
        URI uri = parse(url);
        String host = hostOf(uri);
        List<InetAddress> addresses = resolve(host);
        if (production) {
            checkAddresses(host, addresses);
        }
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() != -1 ? uri.getPort() : https ? 443 : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String pathAndQuery = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        return new Destination(uri, host, port, https, pathAndQuery, addresses.get(0));
    }

    static URI parse(String url) throws Refused {
        if (url == null || url.isBlank()) {
            throw new Refused("is required");
        }
        if (url.length() > MAX_LENGTH) {
            throw new Refused("must be at most " + MAX_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new Refused("must be an absolute http(s) URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new Refused("must be an http or https URL");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new Refused("must name a host");
        }
        if (uri.getPort() == 0 || uri.getPort() > 65535) {
            throw new Refused("has an invalid port");
        }
        return uri;
    }

    private static String hostOf(URI uri) {
        String host = uri.getHost();
        // IPv6 literals come bracketed from URI#getHost
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static List<InetAddress> resolve(String host) throws Refused {
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            if (all.length == 0) {
                throw new Refused("host " + host + " does not resolve");
            }
            return Arrays.asList(all);
        } catch (UnknownHostException e) {
            throw new Refused("host " + host + " does not resolve");
        }
    }

    private static void checkAddresses(String host, List<InetAddress> addresses) throws Refused {
        for (InetAddress address : addresses) {
            if (!isPublic(address)) {
                throw new Refused("must not resolve to a loopback, private or link-local address (" + host + ")");
            }
        }
    }

    /** True for an address on the public internet; false for every special-purpose range named above. */
    public static boolean isPublic(InetAddress address) {
        if (address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress()) {
            return false;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first != 0 // "this network"
                    && !(first == 100 && second >= 64 && second <= 127) // carrier-grade NAT 100.64.0.0/10
                    && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments
                    && !(first == 198 && (second == 18 || second == 19)) // benchmarking 198.18.0.0/15
                    && first < 240; // reserved and broadcast
        }
        if (address instanceof Inet6Address) {
            if ((b[0] & 0xfe) == 0xfc) { // unique local fc00::/7
                return false;
            }
            boolean zeroPrefix = true;
            for (int i = 0; i < 12; i++) {
                zeroPrefix &= b[i] == 0;
            }
            if (zeroPrefix) { // IPv4-compatible ::a.b.c.d carries an IPv4 address: judge that one
                try {
                    return isPublic(InetAddress.getByAddress(Arrays.copyOfRange(b, 12, 16)));
                } catch (UnknownHostException e) {
                    return false;
                }
            }
            boolean nat64 = b[0] == 0x00 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b;
            if (nat64) { // 64:ff9b::/96 translates to the embedded IPv4 address
                try {
                    return isPublic(InetAddress.getByAddress(Arrays.copyOfRange(b, 12, 16)));
                } catch (UnknownHostException e) {
                    return false;
                }
            }
        }
        return true;
    }
}
