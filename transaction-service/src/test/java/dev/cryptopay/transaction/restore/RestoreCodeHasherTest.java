package dev.cryptopay.transaction.restore;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptopay.support.environment.Environment;
import dev.cryptopay.transaction.config.TransactionServiceConfig;
import java.lang.reflect.Proxy;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The key of the KYC restore's code hashes (docs/decisions.md §64): derived or given, never the development one in production. */
class RestoreCodeHasherTest {

    static final String DEV = RestoreCodeHasher.LOCAL_DEVELOPMENT_DOCUMENT_KEY;
    static final String OWN = Base64.getEncoder().encodeToString("0123456789abcdef0123456789ABCDEF".getBytes());

    static TransactionServiceConfig config(String documentKey, String codeKey) {
        Object kyc = Proxy.newProxyInstance(RestoreCodeHasherTest.class.getClassLoader(),
                new Class<?>[] { TransactionServiceConfig.Kyc.class }, (p, m, a) -> switch (m.getName()) {
                    case "documentKey" -> documentKey;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        Object restore = Proxy.newProxyInstance(RestoreCodeHasherTest.class.getClassLoader(),
                new Class<?>[] { TransactionServiceConfig.KycRestore.class }, (p, m, a) -> switch (m.getName()) {
                    case "codeKey" -> Optional.ofNullable(codeKey);
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        return (TransactionServiceConfig) Proxy.newProxyInstance(RestoreCodeHasherTest.class.getClassLoader(),
                new Class<?>[] { TransactionServiceConfig.class }, (p, m, a) -> switch (m.getName()) {
                    case "kyc" -> kyc;
                    case "kycRestore" -> restore;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    @Test
    void theDevelopmentKeyIsRefusedInProductionOnly() {
        assertDoesNotThrow(() -> new RestoreCodeHasher(config(DEV, null), Environment.SANDBOX));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new RestoreCodeHasher(config(DEV, null), Environment.PRODUCTION));
        assertTrue(refused.getMessage().contains("KYC_RESTORE_CODE_KEY"));
        assertDoesNotThrow(() -> new RestoreCodeHasher(config(OWN, null), Environment.PRODUCTION));
        assertDoesNotThrow(() -> new RestoreCodeHasher(config(DEV, OWN), Environment.PRODUCTION));
        assertThrows(IllegalStateException.class, () -> new RestoreCodeHasher(config(OWN,
                Base64.getEncoder().encodeToString("short".getBytes())), Environment.PRODUCTION));
    }

    @Test
    void hashesAreKeyedBoundToTheirRowAndIgnoreTheCaseOfTheEmail() {
        RestoreCodeHasher a = new RestoreCodeHasher(config(DEV, null), Environment.SANDBOX);
        RestoreCodeHasher b = new RestoreCodeHasher(config(OWN, null), Environment.SANDBOX);
        assertEquals(a.email("Ada@Example.com "), a.email("ada@example.com"));
        assertNotEquals(a.email("ada@example.com"), b.email("ada@example.com"), "another key, another hash");
        assertNotEquals(a.code("row-1", "123456"), a.code("row-2", "123456"), "bound to the row");
        assertNotEquals(a.code("row-1", "123456"), b.code("row-1", "123456"));
        assertTrue(a.code("row-1", "123456").matches("[0-9a-f]{64}"));
        assertTrue(RestoreCodeHasher.same(a.code("r", "000001"), a.code("r", "000001")));
    }
}
