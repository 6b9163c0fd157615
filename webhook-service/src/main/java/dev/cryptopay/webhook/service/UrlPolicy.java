package dev.cryptopay.webhook.service;

import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.webhook.config.WebhookConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
import org.jboss.logging.Logger;

/**
 * Which webhook URLs the service accepts and where it may connect (docs/decisions.md §7, §41; SSRF).
 *
 * <p>Everywhere: an absolute {@code http} or {@code https} URL with a host, at most {@value #MAX_LENGTH} characters,
 * and every address the host resolves to must be public: loopback, private (RFC 1918, IPv6 unique-local),
 * link-local, carrier-grade NAT, unspecified, multicast and broadcast addresses are refused, and so are the IPv6
 * transition ranges that tunnel to an IPv4 address of the caller's choosing (6to4 {@code 2002::/16}, Teredo
 * {@code 2001::/32}, local-use NAT64 {@code 64:ff9b:1::/48}). The same rule holds in the sandbox and in production
 * (a publicly hosted sandbox must not let a tenant map the internal network). The check runs when a webhook is saved
 * and again before every attempt, and the attempt connects to exactly the address that passed the check, so a DNS
 * answer that changes in between (DNS rebinding) cannot redirect a delivery into the internal network.
 *
 * <p>The one opening is the explicit allow list {@code cryptopay.webhooks.allowed-targets} (address ranges, for local
 * testing: the test suite allows loopback). It can open loopback and private ranges, never link-local addresses
 * (cloud metadata) nor the transition ranges. Only when saving, a host name that does not resolve (yet) is accepted
 * in the sandbox and refused in production; its attempts are checked like any other.
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

    private static final Logger LOG = Logger.getLogger(UrlPolicy.class);

    private final boolean production;
    private final List<AddressRange> allowed;

    @Inject
    public UrlPolicy(Environment environment, WebhookConfig config) {
        this(environment, config.allowedTargets().orElse(List.of()));
        if (!allowed.isEmpty()) {
            LOG.warnf("webhook URLs may lead to %s (cryptopay.webhooks.allowed-targets): for local testing only",
                    allowed);
        }
    }

    /** @param allowedTargets address ranges ({@code 127.0.0.0/8}, {@code ::1}) opened for local testing */
    public UrlPolicy(Environment environment, List<String> allowedTargets) {
        this.production = environment.isProduction();
        this.allowed = allowedTargets.stream().filter(t -> !t.isBlank()).map(AddressRange::parse).toList();
    }

    /** Why {@code url} cannot be a webhook URL, or empty when it can. Resolves the host. */
    public Optional<String> problem(String url) {
        URI uri;
        try {
            uri = parse(url);
        } catch (Refused e) {
            return Optional.of(e.getMessage());
        }
        String host = hostOf(uri);
        List<InetAddress> addresses;
        try {
            addresses = resolve(host);
        } catch (Refused e) {
            return production ? Optional.of(e.getMessage()) : Optional.empty();
        }
        try {
            checkAddresses(host, addresses);
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
        checkAddresses(host, addresses);
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() != -1 ? uri.getPort() : https ? 443 : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String pathAndQuery = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        return new Destination(uri, host, port, https, pathAndQuery, addresses.get(0));
    }

    /** True when an attempt may connect to {@code address}: public, or in the allow list and not link-local. */
    public boolean permitted(InetAddress address) {
        if (isPublic(address)) {
            return true;
        }
        if (address.isLinkLocalAddress() || isTransition(address)) {
            return false;
        }
        return allowed.stream().anyMatch(range -> range.contains(address));
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

    private void checkAddresses(String host, List<InetAddress> addresses) throws Refused {
        for (InetAddress address : addresses) {
            if (!permitted(address)) {
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
            if ((b[0] & 0xfe) == 0xfc || isTransition(address)) { // unique local fc00::/7; tunnels
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

    /**
     * The IPv6 transition ranges, refused whatever they embed: 6to4 {@code 2002::/16} (an IPv4 address in bits
     * 16-47), Teredo {@code 2001::/32} (server and obfuscated client IPv4 addresses) and the local-use NAT64 prefix
     * {@code 64:ff9b:1::/48} (an operator-chosen translation). Each reaches an IPv4 address of the URL's choosing
     * through a relay, so none is a public destination of its own.
     */
    static boolean isTransition(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return false;
        }
        byte[] b = address.getAddress();
        boolean sixToFour = b[0] == 0x20 && b[1] == 0x02;
        boolean teredo = b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0;
        boolean localNat64 = b[0] == 0x00 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
                && b[4] == 0x00 && b[5] == 0x01;
        return sixToFour || teredo || localNat64;
    }

    /** One entry of the allow list: an address with an optional prefix length ({@code 10.0.0.0/8}, {@code ::1}). */
    record AddressRange(byte[] network, int prefix, String text) {

        static AddressRange parse(String text) {
            String value = text.strip();
            int slash = value.indexOf('/');
            String literal = slash < 0 ? value : value.substring(0, slash);
            if (!literal.matches("[0-9A-Fa-f:.]+")) { // an address literal, never a name to resolve
                throw new IllegalArgumentException("cryptopay.webhooks.allowed-targets: '" + value
                        + "' is not an address or address/prefix");
            }
            try {
                byte[] network = InetAddress.getByName(literal).getAddress();
                int prefix = slash < 0 ? network.length * 8 : Integer.parseInt(value.substring(slash + 1));
                if (prefix < 0 || prefix > network.length * 8) {
                    throw new IllegalArgumentException("cryptopay.webhooks.allowed-targets: bad prefix in " + value);
                }
                return new AddressRange(network, prefix, value);
            } catch (UnknownHostException | NumberFormatException e) {
                throw new IllegalArgumentException("cryptopay.webhooks.allowed-targets: '" + value
                        + "' is not an address or address/prefix");
            }
        }

        boolean contains(InetAddress address) {
            byte[] candidate = address.getAddress();
            if (candidate.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >> (bit % 8);
                if ((candidate[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
