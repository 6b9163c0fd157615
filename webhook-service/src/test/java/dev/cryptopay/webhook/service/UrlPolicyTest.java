package dev.cryptopay.webhook.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.environment.Environment;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class UrlPolicyTest {

    private final UrlPolicy sandbox = new UrlPolicy(Environment.SANDBOX, List.of());
    private final UrlPolicy production = new UrlPolicy(Environment.PRODUCTION, List.of());
    /** As the test suite runs it: loopback opened by the explicit allow list. */
    private final UrlPolicy localTesting = new UrlPolicy(Environment.SANDBOX, List.of("127.0.0.0/8", "::1"));

    @ParameterizedTest
    @ValueSource(strings = { "127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
            "169.254.169.254", "0.0.0.0", "100.64.0.1", "100.127.255.254", "255.255.255.255", "224.0.0.1",
            "198.18.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1",
            "::127.0.0.1", "64:ff9b::a00:1", "2002:a9fe:a9fe::1", "2002:808:808::1", "2001:0:4136:e378::1",
            "2001::1", "64:ff9b:1::808:808", "64:ff9b:1:ffff::1" })
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

    @ParameterizedTest
    @ValueSource(strings = { "http://127.0.0.1:8080/hook", "http://localhost/hook", "http://[::1]/hook",
            "http://10.0.0.7/hook", "http://192.168.1.20/x", "https://169.254.169.254/latest/meta-data",
            "http://[fe80::1]/x", "http://[2002:a9fe:a9fe::1]/x", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x",
            "http://[64:ff9b:1::a9fe:a9fe]/x", "http://100.64.0.1/x", "http://0.0.0.0/x" })
    void theSandboxRefusesInternalAddressesAsProductionDoes(String url) {
        assertTrue(sandbox.problem(url).orElseThrow().contains("loopback, private or link-local"), url);
        assertTrue(production.problem(url).isPresent(), url);
    }

    @Test
    void theAllowListOpensLoopbackForLocalTestingButNeverLinkLocalOrTunnels() {
        assertEquals(Optional.empty(), localTesting.problem("http://127.0.0.1:8080/hook"));
        assertEquals(Optional.empty(), localTesting.problem("http://localhost/hook"));
        assertEquals(Optional.empty(), localTesting.problem("http://[::1]:9000/hook"));
        assertTrue(localTesting.problem("http://10.0.0.7/hook").isPresent(), "private stays refused");
        UrlPolicy everything = new UrlPolicy(Environment.SANDBOX, List.of("0.0.0.0/0", "::/0"));
        assertTrue(everything.problem("http://169.254.169.254/latest/meta-data").isPresent(), "link-local");
        assertTrue(everything.problem("http://[fe80::1]/x").isPresent(), "IPv6 link-local");
        assertTrue(everything.problem("http://[2002:a9fe:a9fe::1]/x").isPresent(), "6to4");
        assertTrue(everything.problem("http://[2001::1]/x").isPresent(), "Teredo");
        assertTrue(everything.problem("http://[64:ff9b:1::1]/x").isPresent(), "local-use NAT64");
        assertEquals(Optional.empty(), everything.problem("http://10.0.0.7/hook"));
        assertThrows(IllegalArgumentException.class, () -> new UrlPolicy(Environment.SANDBOX, List.of("intranet")));
        assertThrows(IllegalArgumentException.class, () -> new UrlPolicy(Environment.SANDBOX, List.of("10.0.0.0/33")));
    }

    @Test
    void aNameThatDoesNotResolveIsAcceptedWhenSavedOnlyInTheSandbox() {
        assertEquals(Optional.empty(), sandbox.problem("https://shop.example/hooks"));
        assertTrue(production.problem("https://shop.example/hooks").orElseThrow().contains("does not resolve"));
        assertEquals(Optional.empty(), production.problem("https://93.184.216.34/hook"));
        assertThrows(UrlPolicy.Refused.class, () -> sandbox.destination("https://shop.example/hooks"),
                "an attempt needs an address");
    }

    @Test
    void theDestinationIsTheCheckedAddress() throws UrlPolicy.Refused {
        UrlPolicy.Destination d = localTesting.destination("https://127.0.0.1/path/x?a=1&b=2");
        assertEquals(443, d.port());
        assertTrue(d.https());
        assertEquals("/path/x?a=1&b=2", d.pathAndQuery());
        assertEquals("127.0.0.1", d.address().getHostAddress());
        assertEquals("/", localTesting.destination("http://127.0.0.1:9000").pathAndQuery());
        assertThrows(UrlPolicy.Refused.class, () -> production.destination("http://127.0.0.1:9000/x"));
        assertThrows(UrlPolicy.Refused.class, () -> sandbox.destination("http://127.0.0.1:9000/x"));
    }
}
