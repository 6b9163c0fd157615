package dev.cryptopay.support.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class AesGcmTest {

    private static final byte[] KEY = new byte[32];
    private static final byte[] ROW = "row-1".getBytes(StandardCharsets.US_ASCII);
    private final AesGcm aes = new AesGcm(KEY);

    @Test
    void sealsNonceCiphertextAndTagAndOpensAtAnOffset() throws Exception {
        byte[] plain = "a secret".getBytes(StandardCharsets.US_ASCII);
        byte[] sealed = aes.seal(ROW, plain);
        assertEquals(AesGcm.NONCE_BYTES + plain.length + AesGcm.TAG_BYTES, sealed.length);
        assertArrayEquals(plain, aes.open(ROW, sealed, 0));
        byte[] prefixed = new byte[sealed.length + 1];
        System.arraycopy(sealed, 0, prefixed, 1, sealed.length);
        assertArrayEquals(plain, aes.open(ROW, prefixed, 1));
        assertEquals(false, Arrays.equals(sealed, aes.seal(ROW, plain)), "a fresh nonce every time");
    }

    @Test
    void anotherRowAnotherKeyAChangedByteOrATruncatedValueDoNotOpen() {
        byte[] sealed = aes.seal(ROW, new byte[] { 1, 2, 3 });
        assertThrows(GeneralSecurityException.class,
                () -> aes.open("row-2".getBytes(StandardCharsets.US_ASCII), sealed, 0));
        byte[] other = new byte[32];
        other[0] = 1;
        assertThrows(GeneralSecurityException.class, () -> new AesGcm(other).open(ROW, sealed, 0));
        byte[] changed = sealed.clone();
        changed[changed.length - 1] ^= 1;
        assertThrows(GeneralSecurityException.class, () -> aes.open(ROW, changed, 0));
        assertThrows(GeneralSecurityException.class, () -> aes.open(ROW, Arrays.copyOf(sealed, 20), 0));
    }

    @Test
    void onlyA32ByteKeyAndTheFingerprintIsSha256Hex() {
        assertThrows(IllegalArgumentException.class, () -> new AesGcm(new byte[16]));
        // SHA-256 of the empty input (FIPS 180-2 test vector)
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", AesGcm.fingerprint(new byte[0]));
    }
}
