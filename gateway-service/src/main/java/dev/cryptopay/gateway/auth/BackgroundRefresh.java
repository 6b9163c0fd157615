package dev.cryptopay.gateway.auth;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Work that keeps what the gateway holds in memory fresh, run off the request path on one daemon thread of its own:
 * the directory's reads of the views' version (§82, §106) and the minter's signatures ahead of need (§107). At most
 * one task per key is queued or running at a time, so a request that finds one under way goes on with what memory
 * holds; a task that fails is reported and the next request may start it again; nothing starts once the gateway stops.
 */
final class BackgroundRefresh<K> {

    private final ExecutorService executor;
    private final Set<K> underWay = ConcurrentHashMap.newKeySet();

    /** On a daemon thread named {@code threadName}. */
    BackgroundRefresh(String threadName) {
        this(Executors.newSingleThreadExecutor(Thread.ofPlatform().name(threadName).daemon().factory()));
    }

    /** On the given executor (tests run it by hand). */
    BackgroundRefresh(ExecutorService executor) {
        this.executor = executor;
    }

    /** Starts {@code work} unless the task of {@code key} is queued or running now; a failure goes to {@code failed}. */
    void start(K key, Runnable work, Consumer<RuntimeException> failed) {
        if (!underWay.add(key)) {
            return;
        }
        try {
            executor.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    failed.accept(e);
                } finally {
                    underWay.remove(key);
                }
            });
        } catch (RejectedExecutionException e) {
            underWay.remove(key); // stopping
        }
    }

    void stop() {
        executor.shutdownNow();
    }
}
