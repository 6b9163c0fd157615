package dev.cryptopay.gateway.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.restassured.response.Response;
import java.util.function.Supplier;

/**
 * Assertions on the gateway's token buckets that hold on a slow machine. A bucket refills greedily (a token the
 * moment a second has passed), so a test cannot know how many tokens came back between two calls; it knows that a
 * bucket never holds more than its capacity and earns one token a second (the tests' buckets refill 1/s).
 */
public final class Buckets {

    private Buckets() {
    }

    /**
     * Makes {@code calls} calls as fast as it can: at most the capacity plus a token per second begun since the first
     * call may pass (answer {@code passed}), every other call must be 429, and at least one must be.
     */
    public static void assertBurstLimited(int calls, int capacity, int passed, Supplier<Response> call) {
        long start = System.nanoTime();
        int through = 0;
        int limited = 0;
        for (int i = 0; i < calls; i++) {
            int status = call.get().statusCode();
            if (status == 429) {
                limited++;
            } else {
                assertEquals(passed, status, "a call the bucket let through");
                through++;
            }
        }
        long refilled = (System.nanoTime() - start) / 1_000_000_000L + 1;
        assertTrue(limited > 0, "no call of " + calls + " was limited");
        assertTrue(through <= capacity + refilled,
                through + " calls got through a bucket of " + capacity + " refilling at most " + refilled);
    }

    /** The first 429 within {@code tries} calls; every call before it must answer {@code passed}. */
    public static Response untilLimited(int tries, int passed, Supplier<Response> call) {
        for (int i = 0; i < tries; i++) {
            Response response = call.get();
            if (response.statusCode() == 429) {
                return response;
            }
            assertEquals(passed, response.statusCode(), "a call the bucket let through");
        }
        return fail("no 429 within " + tries + " calls: the bucket is not applied");
    }
}
