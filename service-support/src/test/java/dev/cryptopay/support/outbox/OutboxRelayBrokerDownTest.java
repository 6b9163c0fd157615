package dev.cryptopay.support.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.events.CloudEvent;
import dev.cryptopay.support.logging.KafkaConnectorLogFilter;
import dev.cryptopay.support.testing.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.handlers.ConsoleHandler;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * A broker the relay cannot reach: the events wait in the outbox (nothing is marked, nothing is lost) and all of
 * them go once the broker can be reached. The relay's producer is pointed at a port where nothing listens; "the
 * broker comes back" is a TCP forwarder opened on that port to the real test broker (the producer needs it only to
 * find the broker: the broker's own advertised address serves the rest).
 *
 * <p>And what the log says of it (docs/decisions.md §127): one WARN from the relay when the outage begins and one INFO
 * when it ends, none of the connector's per-record ERRORs on the console, and no WARN from the emitter per message.
 */
@QuarkusTest
@TestProfile(OutboxRelayBrokerDownTest.UnreachableBroker.class)
class OutboxRelayBrokerDownTest {

    public static class UnreachableBroker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // A port nothing listens on; short waits so the outage costs the test seconds, not minutes.
            return Map.of("mp.messaging.outgoing.outbox-out.bootstrap.servers", "127.0.0.1:" + freePort(),
                    "mp.messaging.outgoing.outbox-out.max.block.ms", "1000",
                    "cryptopay.outbox.ack-timeout", "3s");
        }
    }

    @Inject
    Outbox outbox;
    @Inject
    OutboxRelay relay;
    @Inject
    EntityManager em;

    @Test
    void eventsWaitWhileTheBrokerCannotBeReachedAndAllGoOnceItCan() throws Exception {
        String topic = RelayFixture.newTopic();
        List<String> ids;
        try (CapturedLog connector = CapturedLog.of(KafkaConnectorLogFilter.CATEGORY);
                CapturedLog relayLog = CapturedLog.of(OutboxRelay.class);
                CapturedLog emitterLog = CapturedLog.of("io.smallrye.reactive.messaging.provider")) {
            ids = RelayFixture.append(outbox, topic, "test.outage", 10);
            brokerAwayThenBack(ids, connector, relayLog, emitterLog);
        }
        List<CloudEvent> events = RelayFixture.read(topic,
                seen -> seen.stream().map(CloudEvent::id).toList().containsAll(ids));
        assertEquals(new HashSet<>(ids), RelayFixture.counts(events).keySet(), "every event arrived, none lost");
        assertTrue(events.size() >= ids.size());
    }

    /** Keeps the broker away for 8 s, then lets the relay reach it; checks what was logged meanwhile, and how. */
    private void brokerAwayThenBack(List<String> ids, CapturedLog connector, CapturedLog relayLog,
            CapturedLog emitterLog) throws Exception {
        // The broker is unreachable: however often the relay runs, every event keeps waiting.
        Instant outageEnd = Instant.now().plusSeconds(8);
        while (Instant.now().isBefore(outageEnd)) {
            relay.wake();
            assertEquals(ids.size(), RelayFixture.waiting(em, ids), "nothing is marked while the broker is away");
            Thread.sleep(500);
        }
        List<LogRecord> sendFailures = connector.records().stream()
                .filter(record -> String.valueOf(record.getMessage()).matches("SRMSG18206: .*|SRMSG18212: .*"))
                .toList();
        assertFalse(sendFailures.isEmpty(), "the connector reported the records it could not send: "
                + connector.lines());
        List<Handler> console = consoleHandlers(Logger.getLogger("").getHandlers(), new ArrayList<>());
        assertFalse(console.isEmpty(), "the service logs to the console");
        for (LogRecord failure : sendFailures) {
            assertEquals("ERROR", failure.getLevel().toString(), CapturedLog.line(failure));
            for (Handler handler : console) {
                assertFalse(handler.isLoggable(failure), "on the console: " + CapturedLog.line(failure));
            }
        }

        // The port as the relay's producer was configured (the profile's class is loaded apart from the test's).
        String unreachable = ConfigProvider.getConfig()
                .getValue("mp.messaging.outgoing.outbox-out.bootstrap.servers", String.class);
        int port = Integer.parseInt(unreachable.substring(unreachable.lastIndexOf(':') + 1));
        try (Forwarder broker = new Forwarder(port, RelayFixture.broker())) {
            RelayFixture.awaitPublished(relay, em, ids, Duration.ofSeconds(90));
        }
        assertEquals(List.of(), emitterLog.lines().stream().filter(line -> line.contains("SRMSG00234")).toList(),
                "no WARN from the emitter for each message that failed");
        List<String> reported = relayLog.lines();
        assertEquals(2, reported.size(), "one line as the outage began, one as it ended: " + reported);
        assertTrue(reported.get(0).startsWith("WARN outbox relay paused, will retry: "), reported.get(0));
        assertTrue(reported.get(1).matches("INFO outbox relay resumed after \\d+ ms \\(failed runs: \\d+\\); .*"),
                reported.get(1));
    }

    /** The console handlers below Quarkus' wrapping handlers. */
    private static List<Handler> consoleHandlers(Handler[] handlers, List<Handler> found) {
        for (Handler handler : handlers) {
            if (handler instanceof ConsoleHandler) {
                found.add(handler);
            }
            if (handler instanceof ExtHandler wrapper) {
                consoleHandlers(wrapper.getHandlers(), found);
            }
        }
        return found;
    }

    /**
     * A free port below the kernel's ephemeral range (32768 and up on Linux by default). A port from that range, as
     * {@code new ServerSocket(0)} gives, can be taken while the broker is away by the producer's own connection
     * attempt: a client connecting to a local port where nothing listens may get that very port as its source port and
     * connect to itself, and the forwarder's bind then failed with "Address already in use" (once in a fresh clone's
     * run). No client socket is ever given a port below the range.
     */
    private static int freePort() {
        IOException last = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 32_000);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException taken) {
                last = taken;
            }
        }
        throw new UncheckedIOException("no free port between 20000 and 32000", last);
    }

    /**
     * Forwards every connection made to {@code port} to {@code target} ({@code host:port}), byte for byte in both
     * directions. Written here because the JDK has no TCP relay and a test library for one (Toxiproxy) needs a
     * separate server process; this is the whole of it.
     */
    static final class Forwarder implements AutoCloseable {
        private final ServerSocket server;

        Forwarder(int port, String target) throws IOException {
            String[] hostPort = target.split(",")[0].split(":");
            InetSocketAddress to = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
            server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress("127.0.0.1", port));
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket client = server.accept();
                        Socket upstream = new Socket(to.getHostString(), to.getPort());
                        Thread.ofVirtual().start(() -> pump(client, upstream));
                        Thread.ofVirtual().start(() -> pump(upstream, client));
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
        }

        private static void pump(Socket from, Socket to) {
            try (from; to) {
                from.getInputStream().transferTo(to.getOutputStream());
            } catch (IOException ended) {
                // one side closed: closing both ends the connection
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
