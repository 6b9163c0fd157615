package dev.cryptopay.gateway.proxy;

import io.quarkus.vertx.http.runtime.filters.AbstractResponseWrapper;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.core.http.impl.HttpServerRequestWrapper;

/**
 * A client's request as the gateway hands it to the Vert.x HTTP proxy: the request itself, with the gateway's record
 * of it ({@link GatewayRouter.InFlight}) for the proxy interceptor, and an answer that the proxy resets the way a
 * client's hang-up ends it.
 *
 * <p>The proxy resets the answer when sending it fails midway: the client's connection failed under a write, or the
 * service's answer was cut off. Vert.x' HTTP/1 answer resets by closing its connection and marking itself closed at
 * once, so when the connection's close arrives it runs none of the answer's end, close or exception handlers. Those
 * are how Quarkus counts a request done and how a routing context's end handlers run: every such request stayed in
 * Quarkus' count of requests in flight, whose wait at a stop then ran out ({@code quarkus.shutdown.timeout}, "Timed out
 * waiting for graceful shutdown" after every benchmark run), and in the gateway's own record. Here an HTTP/1 answer not
 * complete yet is reset by closing its connection only, and that close runs those handlers as any hang-up does
 * (docs/decisions.md §118). An HTTP/2 answer resets its own stream and keeps Vert.x' reset.
 */
final class ForwardedRequest extends HttpServerRequestWrapper {

    final GatewayRouter.InFlight tracked;
    private final HttpServerResponse response;

    ForwardedRequest(HttpServerRequest request, GatewayRouter.InFlight tracked) {
        super((HttpServerRequestInternal) request);
        this.tracked = tracked;
        this.response = new ResetByClosing(request);
    }

    @Override
    public HttpServerResponse response() {
        return response;
    }

    /**
     * The proxy pauses the request it forwards, to pipe its body; a request whose body the gateway has read already
     * (JSON bodies, §120) has ended, and an HTTP/2 request refuses to pause once ended ("Request has already been
     * read", which left its client without an answer). An ended request has nothing left to pause.
     */
    @Override
    public HttpServerRequest pause() {
        if (!isEnded()) {
            super.pause();
        }
        return this;
    }

    /** As {@link #pause}: an ended HTTP/2 request refuses to resume too. */
    @Override
    public HttpServerRequest resume() {
        if (!isEnded()) {
            super.resume();
        }
        return this;
    }

    /** The client's answer, reset by closing its HTTP/1 connection (class comment). */
    private static final class ResetByClosing extends AbstractResponseWrapper {
        private final HttpServerRequest request;

        ResetByClosing(HttpServerRequest request) {
            super(request.response());
            this.request = request;
        }

        @Override
        public boolean reset() {
            return reset(0L);
        }

        @Override
        public boolean reset(long code) {
            if (request.version() == HttpVersion.HTTP_2) {
                return super.reset(code);
            }
            if (ended() || closed()) {
                return false;
            }
            request.connection().close();
            return true;
        }
    }
}
