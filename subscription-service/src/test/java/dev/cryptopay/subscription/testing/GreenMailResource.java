package dev.cryptopay.subscription.testing;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** A real SMTP server (GreenMail) on 127.0.0.1:13025 for the whole test run; the mailer sends to it. */
public class GreenMailResource implements QuarkusTestResourceLifecycleManager {

    public static final int PORT = 13025;
    private static GreenMail server;

    public static GreenMail server() {
        return server;
    }

    @Override
    public Map<String, String> start() {
        server = new GreenMail(new ServerSetup(PORT, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        server.start();
        return Map.of("quarkus.mailer.host", "127.0.0.1", "quarkus.mailer.port", String.valueOf(PORT));
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}
