package dev.cryptopay.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When identity tokens are reused and signed again, on a clock moved by hand and a background thread run by hand. */
class TokenMinterTest {

    private static final Duration LIFETIME = Duration.ofSeconds(60);
    private static final long SECOND = 1_000_000_000L;

    /** Runs what it is given only when the test says so. */
    private static final class ManualExecutor extends AbstractExecutorService {
        final Queue<Runnable> queued = new ArrayDeque<>();

        void runAll() {
            Runnable next;
            while ((next = queued.poll()) != null) {
                next.run();
            }
        }

        @Override
        public void execute(Runnable command) {
            queued.add(command);
        }

        @Override
        public void shutdown() {
        }

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }

    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    private final AtomicInteger signatures = new AtomicInteger();
    private final AtomicBoolean signerFails = new AtomicBoolean();
    private final ManualExecutor background = new ManualExecutor();
    private final TokenMinter minter = new TokenMinter(LIFETIME, (identity, now) -> {
        if (signerFails.get()) {
            throw new IllegalStateException("no signing key");
        }
        return identity.subject() + "#" + signatures.incrementAndGet();
    }, clock::get, background);
    private final Identity merchant = new Identity(UUID.randomUUID().toString(), "publishable", "publishable",
            UUID.randomUUID(), null, "shop-1");

    @Test
    void aTokenIsReusedUntilHalfItsLifetimeThenSignedAgainByTheCaller() {
        assertEquals(Optional.empty(), minter.recentTokenFor(merchant));
        String first = minter.tokenFor(merchant);
        clock.addAndGet(30 * SECOND);
        assertEquals(Optional.of(first), minter.recentTokenFor(merchant), "reused up to half the lifetime");
        clock.addAndGet(1);
        assertEquals(Optional.empty(), minter.recentTokenFor(merchant), "not handed out with less than half left");
        String second = minter.tokenFor(merchant);
        assertNotEquals(first, second);
        assertEquals(2, signatures.get());
    }

    @Test
    void pastTwoFifthsOfItsLifetimeATokenIsSignedAgainInTheBackgroundOnce() {
        String first = minter.tokenFor(merchant);
        clock.addAndGet(23 * SECOND);
        assertEquals(Optional.of(first), minter.recentTokenFor(merchant));
        assertTrue(background.queued.isEmpty(), "not before two fifths of the lifetime");
        clock.addAndGet(SECOND);
        assertEquals(Optional.of(first), minter.recentTokenFor(merchant), "the current token is handed out meanwhile");
        assertEquals(first, minter.tokenFor(merchant), "by the blocking path too");
        assertEquals(1, background.queued.size(), "one background signature per identity at a time");
        background.runAll();
        String second = minter.recentTokenFor(merchant).orElseThrow();
        assertNotEquals(first, second);
        clock.addAndGet(20 * SECOND); // 44 s after the first token, 20 s after the second
        assertEquals(Optional.of(second), minter.recentTokenFor(merchant));
        assertTrue(background.queued.isEmpty(), "the new token's own two fifths have not passed");
        assertEquals(2, signatures.get());
    }

    @Test
    void anIdentityAskedForEveryTenthOfTheLifetimeNeverWaitsForASignature() {
        minter.tokenFor(merchant);
        int misses = 0;
        for (int i = 0; i < 50; i++) { // five lifetimes
            clock.addAndGet(6 * SECOND);
            misses += minter.recentTokenFor(merchant).isPresent() ? 0 : 1;
            background.runAll();
        }
        assertEquals(0, misses);
        // one signature about every 24-30 s instead of every 30 s: 12 to 13 over 300 s, with the first
        assertTrue(signatures.get() >= 11 && signatures.get() <= 13, "signatures: " + signatures.get());
    }

    @Test
    void aFailedBackgroundSignatureLeavesTheTokenInUseAndIsTriedAgain() {
        String first = minter.tokenFor(merchant);
        clock.addAndGet(25 * SECOND);
        signerFails.set(true);
        minter.recentTokenFor(merchant);
        background.runAll();
        assertEquals(Optional.of(first), minter.recentTokenFor(merchant), "still handed out; a retry is queued");
        signerFails.set(false);
        background.runAll();
        assertNotEquals(first, minter.recentTokenFor(merchant).orElseThrow());
        assertEquals(2, signatures.get(), "the first token and the retried one (the failed one signed nothing)");
    }
}
