package dev.cryptopay.reporting.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits until a condition holds (polling), failing with a message after the timeout: no sleeps as assertions. */
public final class Await {

    private Await() {
    }

    public static void until(BooleanSupplier condition, Supplier<String> message) {
        Duration timeout = Duration.ofSeconds(20);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + timeout + ": " + message.get());
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
