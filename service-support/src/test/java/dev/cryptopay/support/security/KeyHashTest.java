package dev.cryptopay.support.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class KeyHashTest {

    /** FIPS 180-2's SHA-256 examples: the digests a fresh MessageDigest gives, whatever was hashed before. */
    @Test
    void knownAnswers() {
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", KeyHash.of("abc"));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", KeyHash.of(""));
        assertEquals("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                KeyHash.of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", KeyHash.of("abc"));
    }

    /** Every call hashes on its own copy: threads hashing at once get each their own answer. */
    @Test
    void concurrentCallsDoNotShareState() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        String expected = i % 2 == 0
                                ? "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
                                : "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
                        if (!expected.equals(KeyHash.of(i % 2 == 0 ? "abc" : ""))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertEquals(true, result.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
