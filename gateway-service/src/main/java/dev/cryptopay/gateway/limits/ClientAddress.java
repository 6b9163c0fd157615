package dev.cryptopay.gateway.limits;

import dev.cryptopay.gateway.config.GatewayConfig;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * The client address the rate limits count by (docs/decisions.md §31). By default the socket peer. When
 * {@code gateway.client-address.header} names the header a trusted proxy in front of the gateway sets (e.g.
 * {@code X-Forwarded-For}), its right-most value, the one that proxy appended, and only for requests whose socket peer
 * is one of {@code gateway.client-address.trusted-proxies} (when given); a client cannot choose its own bucket by
 * sending the header past the proxy. Used alike by the router and the public API description.
 */
@ApplicationScoped
public class ClientAddress {

    private final Optional<String> header;
    private final Optional<List<String>> trustedProxies;

    public ClientAddress(GatewayConfig config) {
        this.header = config.clientAddress().header().filter(h -> !h.isBlank());
        this.trustedProxies = config.clientAddress().trustedProxies();
    }

    public String of(HttpServerRequest request) {
        String peer = request.remoteAddress() == null ? "unknown" : request.remoteAddress().host();
        if (header.isEmpty() || trustedProxies.isPresent() && !trustedProxies.get().contains(peer)) {
            return peer;
        }
        List<String> values = request.headers().getAll(header.get());
        if (values.isEmpty()) {
            return peer;
        }
        String last = values.get(values.size() - 1);
        String[] hops = last.split(",");
        String client = hops[hops.length - 1].strip();
        return client.isEmpty() || client.length() > 64 ? peer : client;
    }
}
