package dev.cryptopay.systemtests.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.restassured.response.Response;
import java.util.function.IntFunction;

/**
 * Assertions on the gateway's token buckets that hold on a slow machine. A bucket refills greedily (a token the
 * moment its share of a second has passed) and a token is taken only once the call is authenticated, so a test
 * cannot know how many tokens came back while the calls before it were forwarded; it knows that a bucket never holds
 * more than its capacity and earns {@code refillPerSecond} tokens a second. (The gateway module's tests have their own
 * copy of these two checks: modules share no test code.)
 */
final class Buckets {

    private Buckets() {
    }

    /**
     * Makes {@code calls} calls one after the other: at most the capacity plus what refilled since the first call may
     * pass (answer {@code passed}), each refused one must be a 429 naming Retry-After, and at least one must be.
     * {@code call} gets the call's number. Answers how many were refused.
     */
    static int assertBurstLimited(int calls, int capacity, int refillPerSecond, int passed, IntFunction<Response> call) {
        long start = System.nanoTime();
        int through = 0;
        int limited = 0;
        for (int i = 0; i < calls; i++) {
            Response response = call.apply(i);
            if (response.statusCode() == 429) {
                limited++;
                assertTrue(response.header("Retry-After") != null, "429 names Retry-After");
            } else {
                assertEquals(passed, response.statusCode(), "a call the bucket let through");
                through++;
            }
        }
        long refilled = refillPerSecond * ((System.nanoTime() - start) / 1_000_000_000L + 1);
        assertTrue(limited > 0, "none of " + calls + " calls was refused");
        assertTrue(through <= capacity + refilled,
                through + " of " + calls + " calls got through a bucket of " + capacity + " that refilled " + refilled);
        return limited;
    }

    /** The first 429 within {@code tries} calls; every call before it must answer {@code passed}. */
    static Response untilLimited(int tries, int passed, IntFunction<Response> call) {
        for (int i = 0; i < tries; i++) {
            Response response = call.apply(i);
            if (response.statusCode() == 429) {
                return response;
            }
            assertEquals(passed, response.statusCode(), "a call the bucket let through");
        }
        return fail("no 429 within " + tries + " calls: the bucket is not applied");
    }
}
