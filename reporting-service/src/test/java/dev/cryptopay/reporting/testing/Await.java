package dev.cryptopay.reporting.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits until a condition holds (polling), failing with a message after the timeout: no sleeps as assertions. A
 * condition that throws an {@link AssertionError} (a REST Assured status expectation on a row not projected yet, such
 * as a 404 before the event arrives) counts as "not yet"; the last such error is reported if the timeout passes.
 */
public final class Await {

    private Await() {
    }

    public static void until(BooleanSupplier condition, Supplier<String> message) {
        // generous: a test class's first wait also covers its consumer groups reading the test broker's topics from
        // the start, which hold every event the other modules' tests produced earlier in the same build
        Duration timeout = Duration.ofSeconds(60);
        long deadline = System.nanoTime() + timeout.toNanos();
        AssertionError last = null;
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (AssertionError notYet) {
                last = notYet;
            }
            if (System.nanoTime() > deadline) {
                fail("not within " + timeout + ": " + message.get(), last);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted");
            }
        }
    }
}
