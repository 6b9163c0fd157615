package dev.cryptopay.gateway.auth;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One call per key at a time: a caller arriving while the call for its key runs waits for that call's result instead
 * of making its own; nothing is kept once the call has finished, so the next caller calls again. The directory asks
 * merchant-service through it, so the first burst of requests with a key the gateway has not seen yet (a checkout
 * opened by many customers the moment its key was created) makes one lookup, not one per request (docs/decisions.md
 * §89).
 *
 * <p>Hand-rolled (a map of futures): Caffeine coalesces concurrent loads only into an entry it then keeps, and what a
 * lookup answers — not found, or no answer at all — must not be kept here; the directory's views and the unknown-key
 * memory (§32) decide what is remembered.
 */
final class SingleFlight<K, V> {

    private final ConcurrentHashMap<K, CompletableFuture<V>> running = new ConcurrentHashMap<>();

    /** The result of {@code call} for {@code key}: this caller's own call, or the one running when it arrived. */
    V run(K key, Supplier<V> call) {
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> theirs = running.putIfAbsent(key, mine);
        if (theirs != null) {
            try {
                return theirs.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        try {
            V value = call.get();
            mine.complete(value);
            return value;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            running.remove(key, mine);
        }
    }

    /** How many calls are running (for tests). */
    int running() {
        return running.size();
    }
}
