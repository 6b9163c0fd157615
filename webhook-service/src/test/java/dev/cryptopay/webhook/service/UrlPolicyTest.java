package dev.cryptopay.webhook.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.environment.Environment;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class UrlPolicyTest {

    private final UrlPolicy sandbox = new UrlPolicy(Environment.SANDBOX);
    private final UrlPolicy production = new UrlPolicy(Environment.PRODUCTION);

    @ParameterizedTest
    @ValueSource(strings = { "127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
            "169.254.169.254", "0.0.0.0", "100.64.0.1", "100.127.255.254", "255.255.255.255", "224.0.0.1",
            "198.18.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1",
            "::127.0.0.1", "64:ff9b::a00:1" })
    void specialPurposeAddressesAreNotPublic(String literal) throws UnknownHostException {
        assertFalse(UrlPolicy.isPublic(InetAddress.getByName(literal)), literal);
    }

    @ParameterizedTest
    @ValueSource(strings = { "93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
            "64:ff9b::808:808" })
    void publicAddressesArePublic(String literal) throws UnknownHostException {
        assertTrue(UrlPolicy.isPublic(InetAddress.getByName(literal)), literal);
    }

    @ParameterizedTest
    @ValueSource(strings = { "ftp://example.com/x", "example.com/hook", "javascript:alert(1)", "http:///nohost",
            "http://exa mple.com/", "file:///etc/passwd", "", "https://example.com:99999/x" })
    void onlyAbsoluteHttpUrlsWithAHostAreAccepted(String url) {
        assertTrue(sandbox.problem(url).isPresent(), url);
    }

    @Test
    void theSandboxAcceptsLocalReceiversAndProductionRefusesThem() {
        assertEquals(Optional.empty(), sandbox.problem("http://127.0.0.1:8080/hook"));
        assertEquals(Optional.empty(), sandbox.problem("http://localhost/hook"));
        assertTrue(production.problem("http://127.0.0.1:8080/hook").orElseThrow().contains("loopback"));
        assertTrue(production.problem("http://localhost/hook").isPresent());
        assertTrue(production.problem("http://[::1]/hook").isPresent());
        assertTrue(production.problem("http://10.0.0.7/hook").isPresent());
        assertTrue(production.problem("https://169.254.169.254/latest/meta-data").isPresent());
        assertEquals(Optional.empty(), production.problem("https://93.184.216.34/hook"));
    }

    @Test
    void theDestinationIsTheCheckedAddress() throws UrlPolicy.Refused {
        UrlPolicy.Destination d = sandbox.destination("https://127.0.0.1/path/x?a=1&b=2");
        assertEquals(443, d.port());
        assertTrue(d.https());
        assertEquals("/path/x?a=1&b=2", d.pathAndQuery());
        assertEquals("127.0.0.1", d.address().getHostAddress());
        assertEquals("/", sandbox.destination("http://127.0.0.1:9000").pathAndQuery());
        assertThrows(UrlPolicy.Refused.class, () -> production.destination("http://127.0.0.1:9000/x"));
    }
}
